package dev.berth.stats;

import java.nio.file.Path;
import java.util.List;

/**
 * Where {@link HostStatsCollector} reads the host from. The production implementation is
 * {@link OshiHostStatsSource}; tests script it to drive the collector exactly.
 *
 * <p>Contract: every method reads the operating system now (the one exception: the list of partitions is enumerated
 * again only when the mount table changed; their usage is read every time), may be slow
 * (milliseconds) and may throw; the collector calls them only from its tick, never from a request or a scrape.
 */
public interface HostStatsSource {

    /** Cumulative ticks per logical core, in OSHI {@code TickType} order (user, nice, system, idle, iowait, irq,
     *  softirq, steal). */
    long[][] cpuTicks();

    /** The host's total compute in MHz (cores × MHz per core); 0 when unknown. */
    double totalComputeMhz();

    HostMemoryStats memory();

    /** Physical partitions, one reading each; a partition whose usage cannot be read is a {@link DiskReading.Failed}. */
    List<DiskReading> disks();

    /** Usage of the file system holding {@code dir}, with {@code Device}/{@code Mountpoint} left empty.
     *  @throws java.io.IOException or a runtime exception when it cannot be read */
    HostDiskStats usage(Path dir) throws java.io.IOException;

    long uptimeSeconds();

    /** Outcome of reading one partition. */
    sealed interface DiskReading {
        record Ok(HostDiskStats stats) implements DiskReading {
        }

        record Failed(String mountpoint, String reason) implements DiskReading {
        }
    }
}
