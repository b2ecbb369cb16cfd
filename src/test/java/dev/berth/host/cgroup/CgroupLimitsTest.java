package dev.berth.host.cgroup;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CgroupLimitsTest {

    @ParameterizedTest(name = "{0} MHz on {1} MHz cores, period {2} us -> quota {3} us")
    @CsvSource({
            "500,  2000, 100000, 25000",   // a quarter of a core
            "2000, 2000, 100000, 100000",  // one core
            "4000, 2000, 100000, 200000",  // two cores
            "500,  2000, 50000,  12500",   // the same share of a shorter period
            "1,    3000, 100000, 1000",    // never under the kernel's 1 ms minimum
    })
    void aHardCpuLimitIsTheTasksShareOfOneCoresTimePerPeriod(long cpuMhz, double mhzPerCore, long period, long quota) {
        assertThat(CgroupLimits.cpuQuotaUs(cpuMhz, mhzPerCore, period)).isEqualTo(quota);
    }

    @Test
    void aQuotaNeedsItsPeriodAndPositiveInputs() {
        assertThatThrownBy(() -> new CgroupLimits(0, 0, 100, 0, 25_000, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CgroupLimits.cpuQuotaUs(0, 2000, 100_000)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new CgroupLimits(0, 0, 100, 0)).isEqualTo(new CgroupLimits(0, 0, 100, 0, 0, 0));
    }

    @Test
    void memoryHighIsNineTenthsOfTheWayFromTheReservationToTheHardLimitOnAPage() {
        // 100 MiB reserved, 200 MiB hard: 190 MiB
        assertThat(new CgroupLimits(100L << 20, 200L << 20, 0, 0).highMemoryLimit()).isEqualTo(190L << 20);
        // 1 MB reserved, 1 MB + 10 pages + 1 byte hard: 1 MB + 9 pages (9.0000009 pages rounded down)
        assertThat(new CgroupLimits(1_048_576, 1_048_576 + 40_961, 0, 0).highMemoryLimit()).isEqualTo(1_048_576 + 9 * 4096);
        // never below the reservation, even when the gap is under a page
        assertThat(new CgroupLimits(1_000_000, 1_000_100, 0, 0).highMemoryLimit()).isEqualTo(1_000_000);
        // no memory_max above memory: not set
        assertThat(new CgroupLimits(100L << 20, 0, 0, 0).highMemoryLimit()).isZero();
        assertThat(new CgroupLimits(100L << 20, 100L << 20, 0, 0).highMemoryLimit()).isZero();
    }

    @Test
    void v2WeightFollowsRuncsConversion() {
        assertThat(new CgroupLimits(0, 0, 500, 0).v2Weight()).isEqualTo(19);
        assertThat(new CgroupLimits(0, 0, 1024, 0).v2Weight()).isEqualTo(39);
        assertThat(new CgroupLimits(0, 0, 0, 0).v2Weight()).isEqualTo(1);
    }
}
