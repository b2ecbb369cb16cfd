package dev.berth.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HostDiskStatsTest {

    @Test
    void usageArithmeticIsGopsutils() {
        // total 1000, free 400 (root may use), available 300 (users may use); 100 inodes, 60 free
        HostDiskStats stats = HostDiskStats.of("/dev/vda1", "/", 1000, 400, 300, 100, 60);

        assertThat(stats.used()).isEqualTo(600);
        assertThat(stats.available()).isEqualTo(300);
        assertThat(stats.usedPercent()).isEqualTo(100.0 * 600 / 900);
        assertThat(stats.inodesUsedPercent()).isEqualTo(40.0);
    }

    @Test
    void undefinedPercentagesAreZeroNotNaN() {
        HostDiskStats stats = HostDiskStats.of("tmp", "/x", 0, 0, 0, 0, 0);

        assertThat(stats.usedPercent()).isZero();
        assertThat(stats.inodesUsedPercent()).isZero();
    }
}
