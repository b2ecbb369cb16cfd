package dev.berth.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class CpuClockTest {

    @Test
    void cpuinfoMhzIsTheFallbackClock(@TempDir Path dir) throws IOException {
        Path cpuinfo = dir.resolve("cpuinfo");
        Files.writeString(cpuinfo, "processor\t: 0\nmodel name\t: AMD EPYC\ncpu MHz\t\t: 3295.048\ncache size\t: 512 KB\n");

        assertThat(CpuClock.cpuinfoMhz(cpuinfo)).isEqualTo(3295.048);
        assertThat(CpuClock.cpuinfoMhz(dir.resolve("missing"))).isZero();
    }
}
