package dev.berth.stats;

/**
 * One logical core over the last collection interval (Nomad's {@code CPUStats}). Percentages are 0–100.
 *
 * @param cpu          {@code cpu0}, {@code cpu1}…
 * @param user         share of time in user mode
 * @param system       share of time in kernel mode
 * @param idle         share of time idle
 * @param totalPercent share of time busy (every mode except idle)
 * @param totalTicks   MHz consumed: {@code totalPercent/100 × (total compute / cores)}
 */
public record HostCpuStats(String cpu, double user, double system, double idle, double totalPercent, double totalTicks) {
}
