package dev.berth.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class MeminfoTest {

    private static final String MEMINFO = """
            MemTotal:       24684096 kB
            MemFree:        20000000 kB
            MemAvailable:   23000000 kB
            Buffers:          100000 kB
            Cached:          2000000 kB
            SwapCached:            0 kB
            SReclaimable:     300000 kB
            HugePages_Total:       0
            """;

    @Test
    void usedFollowsGopsutilTotalMinusFreeBuffersAndCacheIncludingReclaimableSlab() {
        HostMemoryStats stats = Meminfo.parse(MEMINFO).toStats();

        assertThat(stats.total()).isEqualTo(24684096L * 1024);
        assertThat(stats.free()).isEqualTo(20000000L * 1024);
        assertThat(stats.available()).isEqualTo(23000000L * 1024);
        assertThat(stats.used()).isEqualTo((24684096L - 20000000 - 100000 - 2000000 - 300000) * 1024);
    }

    @Test
    void oldKernelsWithoutMemAvailableFallBackToFreePlusCache() {
        HostMemoryStats stats = Meminfo.parse(MEMINFO.replace("MemAvailable:   23000000 kB\n", "")).toStats();

        assertThat(stats.available()).isEqualTo((20000000L + 2000000 + 300000) * 1024);
    }

    @Test
    void textWithoutMemTotalIsRejected() {
        assertThatIllegalArgumentException().isThrownBy(() -> Meminfo.parse("MemFree: 1 kB\n"));
    }
}
