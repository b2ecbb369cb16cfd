package dev.berth.stats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

import static dev.berth.stats.TaskMemoryField.CACHE;
import static dev.berth.stats.TaskMemoryField.MAX_USAGE;
import static dev.berth.stats.TaskMemoryField.RSS;
import static dev.berth.stats.TaskMemoryField.SWAP;
import static dev.berth.stats.TaskMemoryField.USAGE;
import static dev.berth.stats.TaskMemoryField.WORKING_SET;

/**
 * cgroup v2 (unified): {@code memory.current}, {@code memory.peak} (kernel ≥ 5.19), {@code memory.stat} (anon → RSS,
 * file → Cache, inactive_file for the working set; there is no mapped_file and no kmem), {@code memory.swap.current}
 * as Swap (swap alone: Nomad, through runc, reports it plus usage), and {@code cpu.stat} in microseconds.
 */
final class CgroupV2StatsReader implements TaskStatsReader {

    private static final byte[][] MEMORY_STAT = CgroupFileBuffer.keys("anon", "file", "inactive_file");
    private static final byte[][] CPU_STAT = CgroupFileBuffer.keys("usage_usec", "user_usec", "system_usec", "nr_throttled",
            "throttled_usec");

    private static final TaskCpuField[] CPU_FIELDS = {TaskCpuField.PERCENT, TaskCpuField.USER_MODE, TaskCpuField.SYSTEM_MODE,
            TaskCpuField.THROTTLED_PERIODS, TaskCpuField.THROTTLED_TIME};

    /** The sampling thread's buffer, taken at the start of each {@link #read()} (the reads are synchronized). */
    private CgroupFileBuffer buffer;
    private final long[] values = new long[CPU_STAT.length];
    /** One builder for all samples (reads are synchronized; {@link TaskMemoryStats.Builder#build()} copies out). */
    private final TaskMemoryStats.Builder memory = new TaskMemoryStats.Builder();
    private final long[] cpu = new long[CPU_STAT.length];
    /** The last sample: given again while the files say what they said then (an idle task). */
    private TaskRawSample last;
    private final KernelFile current;
    private final KernelFile peak;
    private final KernelFile memoryStat;
    private final KernelFile swapCurrent;
    private final KernelFile cpuStat;

    CgroupV2StatsReader(Path dir, DescriptorBudget budget) {
        current = new KernelFile(dir.resolve("memory.current"), budget);
        peak = Files.exists(dir.resolve("memory.peak")) ? new KernelFile(dir.resolve("memory.peak"), budget) : null;
        memoryStat = new KernelFile(dir.resolve("memory.stat"), budget);
        swapCurrent = Files.exists(dir.resolve("memory.swap.current"))
                ? new KernelFile(dir.resolve("memory.swap.current"), budget) : null;
        cpuStat = new KernelFile(dir.resolve("cpu.stat"), budget);
    }

    @Override
    public synchronized TaskRawSample read() throws IOException {
        buffer = CgroupFileBuffer.forThisThread();
        TaskMemoryStats.Builder memory = this.memory.clear();
        if (load(current) && buffer.firstLong() >= 0) {
            memory.set(USAGE, buffer.firstLong());
        }
        if (peak != null && load(peak) && buffer.firstLong() >= 0) {
            memory.set(MAX_USAGE, buffer.firstLong());
        }
        if (swapCurrent != null && load(swapCurrent) && buffer.firstLong() >= 0) {
            memory.set(SWAP, buffer.firstLong());
        }
        if (load(memoryStat)) {
            long found = buffer.scan(MEMORY_STAT, values);
            if ((found & 1) != 0) {
                memory.set(RSS, values[0]);
            }
            if ((found & 2) != 0) {
                memory.set(CACHE, values[1]);
            }
            if ((found & 4) != 0 && memory.has(USAGE)) {
                memory.set(WORKING_SET, Math.max(0, memory.get(USAGE) - values[2]));
            }
        }

        int cpuFields = 0; // bits of TaskCpuField ordinals
        long[] cpu = this.cpu;
        Arrays.fill(cpu, 0);
        if (load(cpuStat)) {
            long found = buffer.scan(CPU_STAT, values);
            for (int i = 0; i < CPU_STAT.length; i++) {
                if ((found & (1L << i)) != 0) {
                    cpu[i] = i == 3 ? values[i] : values[i] * 1_000L; // usec → ns
                    cpuFields |= 1 << CPU_FIELDS[i].ordinal();
                }
            }
        }
        last = TaskRawSample.next(last, memory, cpu[0], cpu[1], cpu[2], cpu[3], cpu[4], cpuFields);
        return last;
    }

    private boolean load(KernelFile file) throws IOException {
        return file.readInto(buffer);
    }

    /** Closes the task's kept-open cgroup files. */
    @Override
    public synchronized void close() {
        for (KernelFile file : new KernelFile[] {current, peak, memoryStat, swapCurrent, cpuStat}) {
            if (file != null) {
                file.close();
            }
        }
    }
}
