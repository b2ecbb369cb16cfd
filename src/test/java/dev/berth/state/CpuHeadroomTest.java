package dev.berth.state;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class CpuHeadroomTest {

    @Test
    void aSampleReadsTheHostsAndTheProcesssTicks(@TempDir Path dir) throws IOException {
        Path stat = Files.writeString(dir.resolve("stat"), """
                cpu  100 10 50 800 20 5 5 10 0 0
                cpu0 50 5 25 400 10 3 2 5 0 0
                cpu1 50 5 25 400 10 2 3 5 0 0
                intr 12345
                """);
        Path self = Files.writeString(dir.resolve("self"),
                "4242 (java (odd) name) S 1 4242 4242 0 -1 4194560 100 0 0 0 30 12 0 0 20 0 40 0 123 0 0\n");

        assertThat(CpuHeadroom.Sample.take(stat, self))
                .contains(new CpuHeadroom.Sample(100 + 10 + 50 + 5 + 5 + 10, 180 + 800 + 20, 42, 2));
        assertThat(CpuHeadroom.Sample.take(dir.resolve("missing"), self)).isEmpty();
        assertThat(CpuHeadroom.Sample.take(stat, Files.writeString(dir.resolve("odd"), "garbage"))).isEmpty();
    }

    @Test
    void whatTheRestOfTheHostLeftIdleBetweenTwoSamples() {
        CpuHeadroom.Sample first = new CpuHeadroom.Sample(1_000, 5_000, 100, 2);

        // 100 ticks of two processors (0.5 s): this process used 60, the rest of the host 20 of them
        assertThat(new CpuHeadroom.Sample(1_080, 5_100, 160, 2).freeSince(first)).isCloseTo(1.6, within(1e-9));
        // a busy host: the others used 90 of 100
        assertThat(new CpuHeadroom.Sample(1_090, 5_100, 100, 2).freeSince(first)).isCloseTo(0.2, within(1e-9));
        assertThat(new CpuHeadroom.Sample(1_001, 5_005, 100, 2).freeSince(first)).as("too short to tell").isNegative();
    }

    @Test
    void aProcessorIsSpareWhenTheRestOfTheHostLeavesEnough() {
        assertThat(new CpuHeadroom(2, 1.9, 7.0).spare()).as("the samples decide, not the load average").isTrue();
        assertThat(new CpuHeadroom(2, 1.5, 0.0).spare()).isFalse();
        assertThat(new CpuHeadroom(1, 1.0, 0.0).spare()).as("one processor").isFalse();

        assertThat(new CpuHeadroom(2, -1, 0.5).spare()).as("no samples: the load average").isTrue();
        assertThat(new CpuHeadroom(2, -1, 1.5).spare()).isFalse();
        assertThat(new CpuHeadroom(2, -1, -1).spare()).as("nothing known").isFalse();
    }
}
