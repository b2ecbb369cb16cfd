package dev.berth.stats;

/**
 * Host memory in bytes, with gopsutil's {@code mem.VirtualMemory} meaning (what Nomad reports).
 *
 * @param total     {@code MemTotal}
 * @param available {@code MemAvailable} (the kernel's estimate of memory available without swapping)
 * @param used      {@code MemTotal − MemFree − Buffers − Cached − SReclaimable}
 * @param free      {@code MemFree}
 */
public record HostMemoryStats(long total, long available, long used, long free) {
}
