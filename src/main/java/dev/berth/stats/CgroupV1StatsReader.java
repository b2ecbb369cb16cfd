package dev.berth.stats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static dev.berth.stats.TaskMemoryField.CACHE;
import static dev.berth.stats.TaskMemoryField.KERNEL_MAX_USAGE;
import static dev.berth.stats.TaskMemoryField.KERNEL_USAGE;
import static dev.berth.stats.TaskMemoryField.MAPPED_FILE;
import static dev.berth.stats.TaskMemoryField.MAX_USAGE;
import static dev.berth.stats.TaskMemoryField.RSS;
import static dev.berth.stats.TaskMemoryField.SWAP;
import static dev.berth.stats.TaskMemoryField.USAGE;
import static dev.berth.stats.TaskMemoryField.WORKING_SET;

/**
 * cgroup v1: memory from the memory hierarchy, CPU time from cpuacct, throttling from cpu (separate hierarchies here,
 * one directory when co-mounted). Hierarchical {@code total_*} keys of memory.stat are preferred over the local ones.
 * Swap is memory.stat's {@code total_swap} alone (the kernel writes it only with swap accounting on), not Nomad's
 * memory+swap {@code memsw} figure.
 */
final class CgroupV1StatsReader implements TaskStatsReader {

    static final long NANOS_PER_USER_HZ_TICK = 10_000_000L; // USER_HZ is 100 on every Linux ABI

    /** memory.stat's keys: the hierarchical {@code total_*} ones (bits 0-4) win over the local ones (bits 5-9). */
    private static final byte[][] MEMORY_STAT = CgroupFileBuffer.keys("total_rss", "total_cache", "total_mapped_file",
            "total_inactive_file", "total_swap", "rss", "cache", "mapped_file", "inactive_file", "swap");
    private static final byte[][] CPUACCT_STAT = CgroupFileBuffer.keys("user", "system");
    private static final byte[][] CPU_STAT = CgroupFileBuffer.keys("nr_throttled", "throttled_time");

    /** The sampling thread's buffer, taken at the start of each {@link #read()} (the reads are synchronized). */
    private CgroupFileBuffer buffer;
    private final long[] values = new long[MEMORY_STAT.length];
    /** One builder for all samples (reads are synchronized; {@link TaskMemoryStats.Builder#build()} copies out). */
    private final TaskMemoryStats.Builder memory = new TaskMemoryStats.Builder();
    /** The last sample: given again while the files say what they said then (an idle task: no CPU used, no page charged). */
    private TaskRawSample last;
    private final KernelFile usage;
    private final KernelFile maxUsage;
    private final KernelFile memoryStat;
    private final KernelFile kmemUsage;
    private final KernelFile kmemMaxUsage;
    private final KernelFile cpuacctUsage;
    private final KernelFile cpuacctStat;
    private final KernelFile cpuStat;

    private final DescriptorBudget budget;

    CgroupV1StatsReader(Map<String, Path> dirs, DescriptorBudget budget) {
        this.budget = budget;
        Path memory = dirs.get("memory");
        Path cpuacct = dirs.get("cpuacct");
        Path cpu = dirs.get("cpu");
        usage = file(memory, "memory.usage_in_bytes");
        maxUsage = file(memory, "memory.max_usage_in_bytes");
        memoryStat = file(memory, "memory.stat");
        // optional files: kmem may be compiled out or disabled on the kernel command line
        kmemUsage = existing(memory, "memory.kmem.usage_in_bytes");
        kmemMaxUsage = existing(memory, "memory.kmem.max_usage_in_bytes");
        cpuacctUsage = file(cpuacct, "cpuacct.usage");
        cpuacctStat = file(cpuacct, "cpuacct.stat");
        cpuStat = file(cpu, "cpu.stat");
    }

    /**
     * Reads every file. When every figure is what the previous sample said, that sample is returned again (nothing is
     * built for an idle task); otherwise a new one, keeping the previous memory or CPU part when that part is the same.
     */
    @Override
    public synchronized TaskRawSample read() throws IOException {
        buffer = CgroupFileBuffer.forThisThread();
        TaskMemoryStats.Builder memory = this.memory.clear();
        readSingle(usage, memory, USAGE);
        readSingle(maxUsage, memory, MAX_USAGE);
        readSingle(kmemUsage, memory, KERNEL_USAGE);
        readSingle(kmemMaxUsage, memory, KERNEL_MAX_USAGE);
        if (memoryStat != null && load(memoryStat)) {
            long found = buffer.scan(MEMORY_STAT, values);
            pick(memory, RSS, found, 0, 5);
            pick(memory, CACHE, found, 1, 6);
            pick(memory, MAPPED_FILE, found, 2, 7);
            pick(memory, SWAP, found, 4, 9);
            long inactiveFile = (found & (1L << 3)) != 0 ? values[3] : (found & (1L << 8)) != 0 ? values[8] : -1;
            if (inactiveFile >= 0 && memory.has(USAGE)) {
                memory.set(WORKING_SET, Math.max(0, memory.get(USAGE) - inactiveFile));
            }
        }

        int cpuFields = 0; // bits of TaskCpuField ordinals: no EnumSet per sample
        long totalNs = 0;
        long userNs = 0;
        long systemNs = 0;
        long throttledPeriods = 0;
        long throttledNs = 0;
        if (cpuacctUsage != null && load(cpuacctUsage) && buffer.firstLong() >= 0) {
            totalNs = buffer.firstLong();
            cpuFields |= 1 << TaskCpuField.PERCENT.ordinal();
        }
        if (cpuacctStat != null && load(cpuacctStat)) {
            long found = buffer.scan(CPUACCT_STAT, values);
            if ((found & 1) != 0) {
                userNs = values[0] * NANOS_PER_USER_HZ_TICK;
                cpuFields |= 1 << TaskCpuField.USER_MODE.ordinal();
            }
            if ((found & 2) != 0) {
                systemNs = values[1] * NANOS_PER_USER_HZ_TICK;
                cpuFields |= 1 << TaskCpuField.SYSTEM_MODE.ordinal();
            }
        }
        if (cpuStat != null && load(cpuStat)) {
            long found = buffer.scan(CPU_STAT, values);
            if ((found & 1) != 0) {
                throttledPeriods = values[0];
                cpuFields |= 1 << TaskCpuField.THROTTLED_PERIODS.ordinal();
            }
            if ((found & 2) != 0) {
                throttledNs = values[1];
                cpuFields |= 1 << TaskCpuField.THROTTLED_TIME.ordinal();
            }
        }
        last = TaskRawSample.next(last, memory, totalNs, userNs, systemNs, throttledPeriods, throttledNs, cpuFields);
        return last;
    }

    private void readSingle(KernelFile path, TaskMemoryStats.Builder memory, TaskMemoryField field) throws IOException {
        if (path != null && load(path)) {
            long value = buffer.firstLong();
            if (value >= 0) {
                memory.set(field, value);
            }
        }
    }

    private void pick(TaskMemoryStats.Builder memory, TaskMemoryField field, long found, int hierarchical, int local) {
        if ((found & (1L << hierarchical)) != 0) {
            memory.set(field, values[hierarchical]);
        } else if ((found & (1L << local)) != 0) {
            memory.set(field, values[local]);
        }
    }

    private boolean load(KernelFile file) throws IOException {
        return file.readInto(buffer);
    }

    /** Closes the task's kept-open cgroup files (the task stopped or its stats are no longer wanted). */
    @Override
    public synchronized void close() {
        for (KernelFile file : new KernelFile[] {usage, maxUsage, memoryStat, kmemUsage, kmemMaxUsage,
                cpuacctUsage, cpuacctStat, cpuStat}) {
            if (file != null) {
                file.close();
            }
        }
    }

    private KernelFile file(Path dir, String name) {
        return dir == null ? null : new KernelFile(dir.resolve(name), budget);
    }

    private KernelFile existing(Path dir, String name) {
        return dir != null && Files.exists(dir.resolve(name)) ? new KernelFile(dir.resolve(name), budget) : null;
    }
}
