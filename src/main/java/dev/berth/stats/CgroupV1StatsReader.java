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
 */
final class CgroupV1StatsReader implements TaskStatsReader {

    static final long NANOS_PER_USER_HZ_TICK = 10_000_000L; // USER_HZ is 100 on every Linux ABI

    /** memory.stat's keys: the hierarchical {@code total_*} ones (bits 0-3) win over the local ones (bits 4-7). */
    private static final StatKeys MEMORY_STAT = new StatKeys("total_rss", "total_cache", "total_mapped_file",
            "total_inactive_file", "rss", "cache", "mapped_file", "inactive_file");
    private static final StatKeys CPUACCT_STAT = new StatKeys("user", "system");
    private static final StatKeys CPU_STAT = new StatKeys("nr_throttled", "throttled_time");
    /** The memory figures of the first {@link #singles}, in order (the last single is cpuacct.usage). */
    private static final TaskMemoryField[] SINGLE_MEMORY_FIELDS = {USAGE, MAX_USAGE, SWAP, KERNEL_USAGE, KERNEL_MAX_USAGE};

    /** The sampling thread's buffer, taken at the start of each {@link #read()} (the reads are synchronized). */
    private CgroupFileBuffer buffer;
    /** One builder for all samples (reads are synchronized; {@link TaskMemoryStats.Builder#build()} copies out). */
    private final TaskMemoryStats.Builder memory = new TaskMemoryStats.Builder();
    // What each file said at its last read that changed it (a file that reads as before is not parsed again):
    /** What the single-number files said, in {@link #singles} order; -1 where not measured. */
    private final long[] singleValues = {-1, -1, -1, -1, -1, -1};
    private final long[] memoryStatValues = new long[MEMORY_STAT.size()];
    private long memoryStatFound;
    private final long[] cpuacctStatValues = new long[CPUACCT_STAT.size()];
    private long cpuacctStatFound;
    private final long[] cpuStatValues = new long[CPU_STAT.size()];
    private long cpuStatFound;
    /** The last sample, returned again while none of the files changed. */
    private TaskRawSample last;
    private final KernelFile usage;
    private final KernelFile maxUsage;
    private final KernelFile memoryStat;
    private final KernelFile memswUsage;
    private final KernelFile kmemUsage;
    private final KernelFile kmemMaxUsage;
    private final KernelFile cpuacctUsage;
    private final KernelFile cpuacctStat;
    private final KernelFile cpuStat;
    /** The files holding a single number: the memory ones, then cpuacct.usage (an absent optional file is null). */
    private final KernelFile[] singles;

    CgroupV1StatsReader(Map<String, Path> dirs) {
        Path memory = dirs.get("memory");
        Path cpuacct = dirs.get("cpuacct");
        Path cpu = dirs.get("cpu");
        usage = file(memory, "memory.usage_in_bytes");
        maxUsage = file(memory, "memory.max_usage_in_bytes");
        memoryStat = file(memory, "memory.stat");
        // optional files: swap accounting and kmem may be compiled out or disabled on the kernel command line
        memswUsage = existing(memory, "memory.memsw.usage_in_bytes");
        kmemUsage = existing(memory, "memory.kmem.usage_in_bytes");
        kmemMaxUsage = existing(memory, "memory.kmem.max_usage_in_bytes");
        cpuacctUsage = file(cpuacct, "cpuacct.usage");
        cpuacctStat = file(cpuacct, "cpuacct.stat");
        cpuStat = file(cpu, "cpu.stat");
        singles = new KernelFile[] {usage, maxUsage, memswUsage, kmemUsage, kmemMaxUsage, cpuacctUsage};
    }

    /**
     * Reads every file; a file whose bytes are those of its previous read keeps its parsed figures, and when no file
     * changed (an idle task: no CPU used, no page charged) the previous sample is returned as it is.
     */
    @Override
    public synchronized TaskRawSample read() throws IOException {
        buffer = CgroupFileBuffer.forThisThread();
        boolean changed = last == null;
        KernelFile[] singles = this.singles;
        for (int i = 0; i < singles.length; i++) {
            if (reload(singles[i])) {
                singleValues[i] = singles[i].isRemembered() ? buffer.firstLong() : -1;
                changed = true;
            }
        }
        if (reload(memoryStat)) {
            memoryStatFound = memoryStat.isRemembered() ? MEMORY_STAT.scan(buffer, memoryStatValues) : 0;
            changed = true;
        }
        if (reload(cpuacctStat)) {
            cpuacctStatFound = cpuacctStat.isRemembered() ? CPUACCT_STAT.scan(buffer, cpuacctStatValues) : 0;
            changed = true;
        }
        if (reload(cpuStat)) {
            cpuStatFound = cpuStat.isRemembered() ? CPU_STAT.scan(buffer, cpuStatValues) : 0;
            changed = true;
        }
        if (changed) {
            last = new TaskRawSample(memory(), cpu(), Map.of());
        }
        return last;
    }

    private TaskMemoryStats memory() {
        TaskMemoryStats.Builder memory = this.memory.clear();
        for (int i = 0; i < SINGLE_MEMORY_FIELDS.length; i++) {
            if (singleValues[i] >= 0) {
                memory.set(SINGLE_MEMORY_FIELDS[i], singleValues[i]);
            }
        }
        long found = memoryStatFound;
        long[] values = memoryStatValues;
        pick(memory, RSS, found, 0, 4);
        pick(memory, CACHE, found, 1, 5);
        pick(memory, MAPPED_FILE, found, 2, 6);
        long inactiveFile = (found & (1L << 3)) != 0 ? values[3] : (found & (1L << 7)) != 0 ? values[7] : -1;
        if (inactiveFile >= 0 && memory.has(USAGE)) {
            memory.set(WORKING_SET, Math.max(0, memory.get(USAGE) - inactiveFile));
        }
        return memory.build();
    }

    private TaskCpuTimes cpu() {
        int cpuFields = 0; // bits of TaskCpuField ordinals: no EnumSet per sample
        long totalNs = singleValues[5];
        if (totalNs >= 0) {
            cpuFields |= 1 << TaskCpuField.PERCENT.ordinal();
        } else {
            totalNs = 0;
        }
        long userNs = 0;
        long systemNs = 0;
        if ((cpuacctStatFound & 1) != 0) {
            userNs = cpuacctStatValues[0] * NANOS_PER_USER_HZ_TICK;
            cpuFields |= 1 << TaskCpuField.USER_MODE.ordinal();
        }
        if ((cpuacctStatFound & 2) != 0) {
            systemNs = cpuacctStatValues[1] * NANOS_PER_USER_HZ_TICK;
            cpuFields |= 1 << TaskCpuField.SYSTEM_MODE.ordinal();
        }
        long throttledPeriods = 0;
        long throttledNs = 0;
        if ((cpuStatFound & 1) != 0) {
            throttledPeriods = cpuStatValues[0];
            cpuFields |= 1 << TaskCpuField.THROTTLED_PERIODS.ordinal();
        }
        if ((cpuStatFound & 2) != 0) {
            throttledNs = cpuStatValues[1];
            cpuFields |= 1 << TaskCpuField.THROTTLED_TIME.ordinal();
        }
        return new TaskCpuTimes(totalNs, userNs, systemNs, throttledPeriods, throttledNs, FieldSets.CPU.ofMask(cpuFields));
    }

    private void pick(TaskMemoryStats.Builder memory, TaskMemoryField field, long found, int hierarchical, int local) {
        if ((found & (1L << hierarchical)) != 0) {
            memory.set(field, memoryStatValues[hierarchical]);
        } else if ((found & (1L << local)) != 0) {
            memory.set(field, memoryStatValues[local]);
        }
    }

    /**
     * Reads {@code file} into the buffer; whether what it says changed since its previous read (its bytes, or whether
     * it could be read at all). A file that does not exist never changes.
     */
    private boolean reload(KernelFile file) throws IOException {
        if (file == null) {
            return false;
        }
        return file.readInto(buffer) ? file.changed(buffer) : file.forget();
    }

    /** Closes the task's kept-open cgroup files (the task stopped or its stats are no longer wanted). */
    @Override
    public synchronized void close() {
        for (KernelFile file : new KernelFile[] {usage, maxUsage, memoryStat, memswUsage, kmemUsage, kmemMaxUsage,
                cpuacctUsage, cpuacctStat, cpuStat}) {
            if (file != null) {
                file.close();
            }
        }
    }

    private static KernelFile file(Path dir, String name) {
        return dir == null ? null : new KernelFile(dir.resolve(name));
    }

    private static KernelFile existing(Path dir, String name) {
        return dir != null && Files.exists(dir.resolve(name)) ? new KernelFile(dir.resolve(name)) : null;
    }
}
