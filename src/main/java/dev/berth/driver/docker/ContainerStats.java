package dev.berth.driver.docker;

/**
 * One cgroup sample of a container (or any cgroup), in bytes and nanoseconds, cumulative where the kernel counts up.
 * Field meanings follow Nomad's {@code MemoryStats}/{@code CpuStats} (reference §9); {@code workingSet} is
 * usage minus inactive file pages (cAdvisor's definition).
 */
public record ContainerStats(
        long rss,
        long cache,
        long usage,
        long maxUsage,
        long workingSet,
        long cpuTotalNs,
        long cpuUserNs,
        long cpuSystemNs,
        long throttledPeriods,
        long throttledTimeNs,
        long pids) {
}
