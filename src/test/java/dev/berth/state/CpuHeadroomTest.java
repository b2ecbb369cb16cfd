package dev.berth.state;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class CpuHeadroomTest {

    @Test
    void readsTheTenSecondAverageOfSomePressure(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("cpu"), """
                some avg10=12.34 avg60=66.58 avg300=61.81 total=27724382419
                full avg10=0.00 avg60=0.00 avg300=0.00 total=0
                """);

        assertThat(CpuHeadroom.pressure(file)).hasValue(12.34);
        assertThat(CpuHeadroom.pressure(dir.resolve("missing"))).isEmpty();
        assertThat(CpuHeadroom.pressure(Files.writeString(dir.resolve("odd"), "some avg10=x\n"))).isEmpty();
    }

    @Test
    void aProcessorIsSpareWithTwoOrMoreAndLittlePressure() {
        assertThat(new CpuHeadroom(2, OptionalDouble.of(5.0), 7.0).spare()).as("pressure decides, not the load").isTrue();
        assertThat(new CpuHeadroom(2, OptionalDouble.of(CpuHeadroom.MAX_PRESSURE), 0.0).spare()).isFalse();
        assertThat(new CpuHeadroom(1, OptionalDouble.of(0.0), 0.0).spare()).as("one processor").isFalse();

        assertThat(new CpuHeadroom(2, OptionalDouble.empty(), 0.5).spare()).as("no PSI: the load average").isTrue();
        assertThat(new CpuHeadroom(2, OptionalDouble.empty(), 1.5).spare()).isFalse();
        assertThat(new CpuHeadroom(4, OptionalDouble.empty(), 2.5).spare()).isTrue();
        assertThat(new CpuHeadroom(2, OptionalDouble.empty(), -1.0).spare()).as("unknown").isFalse();
    }
}
