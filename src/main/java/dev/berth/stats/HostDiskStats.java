package dev.berth.stats;

/**
 * Usage of one file system (Nomad's {@code DiskStats}); sizes in bytes, percentages 0–100.
 *
 * @param device            block device, e.g. {@code /dev/vda1} ({@code ""} for the alloc dir)
 * @param mountpoint        where it is mounted ({@code ""} for the alloc dir)
 * @param size              total size
 * @param used              bytes in use ({@code size − free})
 * @param available         bytes available to unprivileged users
 * @param usedPercent       {@code used / (used + available) × 100}, 0 when undefined
 * @param inodesUsedPercent share of inodes in use, 0 when undefined
 */
public record HostDiskStats(String device, String mountpoint, long size, long used, long available, double usedPercent,
                            double inodesUsedPercent) {

    /** What Nomad reports when a usage read fails: every field zero. */
    public static final HostDiskStats EMPTY = new HostDiskStats("", "", 0, 0, 0, 0, 0);

    public HostDiskStats {
        device = device == null ? "" : device;
        mountpoint = mountpoint == null ? "" : mountpoint;
        usedPercent = finiteOrZero(usedPercent);
        inodesUsedPercent = finiteOrZero(inodesUsedPercent);
    }

    /** Builds the stats from raw statvfs-style numbers, with gopsutil's {@code disk.Usage} arithmetic. */
    public static HostDiskStats of(String device, String mountpoint, long total, long free, long available,
                                   long totalInodes, long freeInodes) {
        long used = Math.max(0, total - free);
        double usedPercent = 100.0 * used / (used + available);
        long usedInodes = Math.max(0, totalInodes - freeInodes);
        double inodesUsedPercent = 100.0 * usedInodes / totalInodes;
        return new HostDiskStats(device, mountpoint, total, used, available, usedPercent, inodesUsedPercent);
    }

    private static double finiteOrZero(double value) {
        // Nomad turns NaN into 0 (e.g. file systems without inodes).
        return Double.isFinite(value) ? value : 0.0;
    }
}
