package dev.berth.stats;

import java.util.List;
import java.util.Objects;

/**
 * One immutable host sample, shaped like Nomad's {@code HostStats} ({@code client/hoststats/host.go}). Readers
 * (REST, gauges) share it; nothing in it changes after the tick that produced it.
 *
 * @param memory           host memory
 * @param cpus             one entry per logical core, {@code cpu0}…
 * @param disks            physical partitions whose usage could be read
 * @param allocDir         usage of the file system holding the allocation directory ({@link HostDiskStats#EMPTY}
 *                         when it could not be read)
 * @param uptimeSeconds    seconds since boot
 * @param timestampNanos   when the sample was taken, UnixNano
 * @param cpuTicksConsumed sum of every core's {@link HostCpuStats#totalTicks()} (MHz)
 */
public record HostStats(HostMemoryStats memory, List<HostCpuStats> cpus, List<HostDiskStats> disks, HostDiskStats allocDir,
                        long uptimeSeconds, long timestampNanos, double cpuTicksConsumed) {

    public HostStats {
        Objects.requireNonNull(memory, "'memory' must not be null");
        cpus = List.copyOf(cpus);
        disks = List.copyOf(disks);
        Objects.requireNonNull(allocDir, "'allocDir' must not be null");
    }
}
