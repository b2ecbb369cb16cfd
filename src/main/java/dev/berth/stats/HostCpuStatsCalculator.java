package dev.berth.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * Per-core CPU percentages from cumulative tick counters, exactly as Nomad's {@code HostCpuStatsCalculator}
 * ({@code client/hoststats}): deltas against the previous sample, {@code busy} = every mode but idle, NaN/Inf/negative
 * values clamped (idle → 100, the others → 0). The first sample is compared with zero, so it reports the average
 * since boot, as Nomad does. Not thread-safe: the collector calls it under its lock.
 */
final class HostCpuStatsCalculator {

    /** Tick order of OSHI's {@code CentralProcessor.TickType}. */
    static final int USER = 0, NICE = 1, SYSTEM = 2, IDLE = 3, IOWAIT = 4, IRQ = 5, SOFTIRQ = 6, STEAL = 7;

    private long[][] previous = new long[0][];
    /** "cpu0", "cpu1", ...: built once, not concatenated at every tick. */
    private String[] names = new String[0];

    /**
     * @param ticks            per logical core, cumulative ticks in {@code TickType} order (any time unit)
     * @param totalComputeMhz  the host's total compute (cores × MHz); 0 when unknown
     */
    List<HostCpuStats> calculate(long[][] ticks, double totalComputeMhz) {
        int cores = ticks.length;
        double mhzPerCore = cores == 0 ? 0 : totalComputeMhz / cores;
        List<HostCpuStats> result = new ArrayList<>(cores);
        if (names.length < cores) {
            names = new String[cores];
            for (int core = 0; core < cores; core++) {
                names[core] = "cpu" + core;
            }
        }
        for (int core = 0; core < cores; core++) {
            long[] now = ticks[core];
            long[] before = core < previous.length && previous[core] != null ? previous[core] : new long[now.length];
            double deltaTotal = sum(now) - sum(before);
            double deltaIdle = at(now, IDLE) - at(before, IDLE);
            double idle = clamp(deltaIdle / deltaTotal * 100, 100.0);
            double user = clamp((at(now, USER) - at(before, USER)) / deltaTotal * 100, 0.0);
            double system = clamp((at(now, SYSTEM) - at(before, SYSTEM)) / deltaTotal * 100, 0.0);
            double total = clamp((deltaTotal - deltaIdle) / deltaTotal * 100, 0.0);
            result.add(new HostCpuStats(names[core], user, system, idle, total, total / 100 * mhzPerCore));
        }
        previous = copy(ticks);
        return result;
    }

    private static double clamp(double value, double fallback) {
        return Double.isNaN(value) || Double.isInfinite(value) || value < 0 ? fallback : value;
    }

    private static double sum(long[] ticks) {
        double sum = 0;
        for (long tick : ticks) {
            sum += tick;
        }
        return sum;
    }

    private static double at(long[] ticks, int index) {
        return index < ticks.length ? ticks[index] : 0;
    }

    private static long[][] copy(long[][] ticks) {
        long[][] copy = new long[ticks.length][];
        for (int i = 0; i < ticks.length; i++) {
            copy[i] = ticks[i].clone();
        }
        return copy;
    }
}
