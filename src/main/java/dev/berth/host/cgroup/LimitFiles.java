package dev.berth.host.cgroup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a task's {@link CgroupLimits} into its cgroup's files: the table in docs/stats.md ("Limits"). Swap is the
 * task's swap budget, 0 unless the node allows swap (as Nomad's exec driver, which always closes it): v1's
 * {@code memory.memsw.limit_in_bytes} (memory + swap) is the hard limit plus the budget where the kernel accounts swap,
 * v2's {@code memory.swap.max} is the budget; with {@code memory_max} above {@code memory} the reservation is v1's
 * {@code memory.soft_limit_in_bytes}, v2's {@code memory.low}, and v2 throttles from {@code memory.high}
 * ({@link CgroupLimits#highMemoryLimit()}); a CPU ceiling is
 * v1's {@code cpu.cfs_period_us} + {@code cpu.cfs_quota_us}, v2's {@code cpu.max} ({@code "quota period"}).
 */
final class LimitFiles {

    private LimitFiles() {
    }

    static void write(TaskCgroup cgroup, CgroupLimits limits) throws IOException {
        long hard = limits.hardMemoryLimit();
        if (cgroup.version() == CgroupVersion.V1) {
            Path memory = cgroup.dir("memory");
            if (hard > 0) {
                write(memory, "memory.limit_in_bytes", hard);
                // memory+swap: the hard limit plus the swap budget (equal to memory when there is none)
                if (Files.exists(memory.resolve("memory.memsw.limit_in_bytes"))) {
                    write(memory, "memory.memsw.limit_in_bytes", hard + limits.swapBytes());
                }
            }
            if (limits.softMemoryLimit() > 0) {
                write(memory, "memory.soft_limit_in_bytes", limits.softMemoryLimit());
            }
            if (limits.cpuShares() > 0 && cgroup.dir("cpu") != null) {
                write(cgroup.dir("cpu"), "cpu.shares", limits.v1Shares());
            }
            if (limits.cpuQuotaUs() > 0 && cgroup.dir("cpu") != null) {
                write(cgroup.dir("cpu"), "cpu.cfs_period_us", limits.cpuPeriodUs());
                write(cgroup.dir("cpu"), "cpu.cfs_quota_us", limits.cpuQuotaUs());
            }
            if (limits.pidsMax() > 0 && cgroup.dir("pids") != null) {
                write(cgroup.dir("pids"), "pids.max", limits.pidsMax());
            }
        } else {
            Path dir = cgroup.dir(TaskCgroup.UNIFIED);
            if (hard > 0) {
                write(dir, "memory.max", hard);
                write(dir, "memory.swap.max", limits.swapBytes());
            }
            if (limits.softMemoryLimit() > 0) {
                write(dir, "memory.low", limits.softMemoryLimit());
                write(dir, "memory.high", limits.highMemoryLimit());
            }
            if (limits.cpuShares() > 0) {
                write(dir, "cpu.weight", limits.v2Weight());
            }
            if (limits.cpuQuotaUs() > 0) {
                Files.writeString(dir.resolve("cpu.max"), limits.cpuQuotaUs() + " " + limits.cpuPeriodUs(), StandardCharsets.US_ASCII);
            }
            if (limits.pidsMax() > 0) {
                write(dir, "pids.max", limits.pidsMax());
            }
        }
    }

    /**
     * Writes new limits into the cgroup of a running task (an in-place resize), so that every limit is the new one,
     * also those the new limits leave unset (v1 soft limit back to unlimited, v2 {@code memory.low} to 0 and
     * {@code memory.high} to {@code max}). v1 keeps memory+swap at or above memory at every step: a larger limit writes
     * {@code memory.memsw.limit_in_bytes} first, a smaller one {@code memory.limit_in_bytes} first (where the kernel
     * answers EBUSY when it cannot reclaim down to it, and nothing has changed yet).
     */
    static void rewrite(TaskCgroup cgroup, CgroupLimits limits) throws IOException {
        long hard = limits.hardMemoryLimit();
        if (cgroup.version() == CgroupVersion.V1) {
            Path memory = cgroup.dir("memory");
            if (hard > 0) {
                boolean memsw = Files.exists(memory.resolve("memory.memsw.limit_in_bytes"));
                boolean growing = hard > Long.parseLong(Files.readString(memory.resolve("memory.limit_in_bytes")).strip());
                if (memsw && growing) {
                    write(memory, "memory.memsw.limit_in_bytes", hard + limits.swapBytes());
                }
                write(memory, "memory.limit_in_bytes", hard);
                if (memsw && !growing) {
                    write(memory, "memory.memsw.limit_in_bytes", hard + limits.swapBytes());
                }
            }
            write(memory, "memory.soft_limit_in_bytes", limits.softMemoryLimit() > 0 ? limits.softMemoryLimit() : -1);
        } else {
            Path dir = cgroup.dir(TaskCgroup.UNIFIED);
            write(dir, "memory.low", limits.softMemoryLimit());
            Files.writeString(dir.resolve("memory.high"), limits.highMemoryLimit() > 0 ? Long.toString(limits.highMemoryLimit()) : "max",
                    StandardCharsets.US_ASCII);
        }
        CgroupLimits rest = new CgroupLimits(0, 0, limits.cpuShares(), limits.pidsMax(), limits.cpuQuotaUs(), limits.cpuPeriodUs());
        if (cgroup.version() == CgroupVersion.V2 && hard > 0) {
            rest = new CgroupLimits(hard, 0, limits.cpuShares(), limits.pidsMax(), limits.cpuQuotaUs(), limits.cpuPeriodUs(),
                    limits.swapBytes());
        }
        write(cgroup, rest);
    }

    private static void write(Path dir, String file, long value) throws IOException {
        Files.writeString(dir.resolve(file), Long.toString(value), StandardCharsets.US_ASCII);
    }
}
