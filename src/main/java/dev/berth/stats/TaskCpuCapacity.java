package dev.berth.stats;

/**
 * The host's CPU capacity used to turn a task's CPU percent into Nomad's {@code TotalTicks} (MHz consumed).
 *
 * @param totalComputeMhz every core's frequency summed (Nomad's {@code TotalCompute})
 * @param cores           logical cores
 */
public record TaskCpuCapacity(double totalComputeMhz, int cores) {

    public TaskCpuCapacity {
        if (totalComputeMhz <= 0 || cores <= 0) {
            throw new IllegalArgumentException("CPU capacity must be positive, was " + totalComputeMhz + " MHz / " + cores + " cores");
        }
    }

    /** {@code percent/100 × totalCompute/cores}, as Nomad's {@code cpustats.Tracker.TicksConsumed}. */
    public double ticksConsumed(double percent) {
        return percent / 100 * totalComputeMhz / cores;
    }
}
