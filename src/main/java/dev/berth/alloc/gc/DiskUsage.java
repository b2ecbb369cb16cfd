package dev.berth.alloc.gc;

import java.io.IOException;

/**
 * Port: how full the filesystem holding the allocation directories is. The real adapter reads {@code statvfs(3)} of the
 * alloc dir ({@link StatvfsDiskUsage}); tests inject their own.
 */
@FunctionalInterface
public interface DiskUsage {

    /** Reads the current usage. May be called from any thread; must not cache. */
    Usage read() throws IOException;

    /**
     * @param diskUsedPercent  used space as Nomad computes it: {@code used / (used + available) * 100}
     * @param inodeUsedPercent used inodes: {@code (files - free) / files * 100}; 0 when the filesystem has no inode limit
     */
    record Usage(double diskUsedPercent, double inodeUsedPercent) {
    }
}
