package dev.berth.stats;

/**
 * Nomad's {@code cpustats.Tracker}: percent of one core used between two readings of a cumulative CPU time,
 * {@code ΔcpuNs / ΔwallNs × 100}, not divided by the number of cores. The first reading and any non-positive
 * delta (counter reset, clock step) give 0. Not thread-safe; one per task per counter.
 */
final class TaskCpuPercent {

    private boolean primed;
    private long previousCpuNs;
    private long previousWallNs;

    double percent(long cpuNs, long wallNs) {
        if (!primed) {
            primed = true;
            previousCpuNs = cpuNs;
            previousWallNs = wallNs;
            return 0;
        }
        long cpuDelta = cpuNs - previousCpuNs;
        long wallDelta = wallNs - previousWallNs;
        previousCpuNs = cpuNs;
        previousWallNs = wallNs;
        if (cpuDelta <= 0 || wallDelta <= 0) {
            return 0;
        }
        return (double) cpuDelta / wallDelta * 100.0;
    }
}
