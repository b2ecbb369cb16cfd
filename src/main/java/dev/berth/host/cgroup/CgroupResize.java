package dev.berth.host.cgroup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * New limits for the cgroup of a running task (in-place resize). A memory limit below what the task uses now is refused
 * before anything is written: on v2 {@code memory.max} below the usage makes the kernel reclaim and, when it cannot,
 * OOM-kill the task; on v1 the kernel tries to reclaim and then answers EBUSY. "What it uses" is the working set, usage
 * less the inactive file cache (v2 {@code memory.current} − {@code inactive_file}, v1 {@code memory.usage_in_bytes} −
 * {@code total_inactive_file}), the figure the kubelet compares limits with: cache the kernel can drop does not count.
 */
public final class CgroupResize {

    private static final long MB = 1024 * 1024;

    private CgroupResize() {
    }

    /**
     * Writes {@code limits} into {@code cgroup} (every limit, see {@link LimitFiles#rewrite}).
     *
     * @return empty when the new limits are in place, else why they were refused (the old limits then stay)
     */
    public static Optional<String> apply(TaskCgroup cgroup, CgroupLimits limits) {
        long hard = limits.hardMemoryLimit();
        try {
            long inUse = workingSet(cgroup);
            if (hard > 0 && inUse > hard) {
                return Optional.of("the new memory limit " + hard / MB + " MB is below the task's current use " + inUse / MB + " MB");
            }
            LimitFiles.rewrite(cgroup, limits);
            return Optional.empty();
        } catch (IOException e) {
            boolean busy = e.getMessage() != null && e.getMessage().contains("busy");
            return Optional.of(busy ? "the kernel could not reclaim the task's memory down to the new limit " + hard / MB + " MB (EBUSY)"
                    : "cannot write the new limits of " + cgroup.name() + ": " + V2Delegation.message(e));
        }
    }

    /** The task's memory working set in bytes: usage less the inactive file cache; 0 when the cgroup has no memory files. */
    public static long workingSet(TaskCgroup cgroup) throws IOException {
        Path dir = cgroup.dir("memory");
        if (dir == null) {
            return 0;
        }
        boolean v2 = cgroup.version() == CgroupVersion.V2;
        Path usage = dir.resolve(v2 ? "memory.current" : "memory.usage_in_bytes");
        if (!Files.exists(usage)) {
            return 0;
        }
        long used = Long.parseLong(Files.readString(usage, StandardCharsets.US_ASCII).strip());
        String key = v2 ? "inactive_file " : "total_inactive_file ";
        long inactive = 0;
        for (String line : Files.readAllLines(dir.resolve("memory.stat"), StandardCharsets.US_ASCII)) {
            if (line.startsWith(key)) {
                inactive = Long.parseLong(line.substring(key.length()).strip());
                break;
            }
        }
        return Math.max(0, used - inactive);
    }
}
