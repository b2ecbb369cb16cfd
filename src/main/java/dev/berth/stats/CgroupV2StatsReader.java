package dev.berth.stats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
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
 * reported as swap + usage like runc does for v1 compatibility (Nomad §9), and {@code cpu.stat} in microseconds.
 */
final class CgroupV2StatsReader implements TaskStatsReader {

    private static final byte[][] MEMORY_STAT = CgroupFileBuffer.keys("anon", "file", "inactive_file");
    private static final byte[][] CPU_STAT = CgroupFileBuffer.keys("usage_usec", "user_usec", "system_usec", "nr_throttled",
            "throttled_usec");

    private static final TaskCpuField[] CPU_FIELDS = {TaskCpuField.PERCENT, TaskCpuField.USER_MODE, TaskCpuField.SYSTEM_MODE,
            TaskCpuField.THROTTLED_PERIODS, TaskCpuField.THROTTLED_TIME};

    private final CgroupFileBuffer buffer = new CgroupFileBuffer();
    private final long[] values = new long[CPU_STAT.length];
    private final String current;
    private final String peak;
    private final String memoryStat;
    private final String swapCurrent;
    private final String cpuStat;

    CgroupV2StatsReader(Path dir) {
        current = dir.resolve("memory.current").toString();
        peak = Files.exists(dir.resolve("memory.peak")) ? dir.resolve("memory.peak").toString() : null;
        memoryStat = dir.resolve("memory.stat").toString();
        swapCurrent = Files.exists(dir.resolve("memory.swap.current")) ? dir.resolve("memory.swap.current").toString() : null;
        cpuStat = dir.resolve("cpu.stat").toString();
    }

    @Override
    public TaskRawSample read() throws IOException {
        TaskMemoryStats.Builder memory = new TaskMemoryStats.Builder();
        if (buffer.load(current) && buffer.firstLong() >= 0) {
            memory.set(USAGE, buffer.firstLong());
        }
        if (peak != null && buffer.load(peak) && buffer.firstLong() >= 0) {
            memory.set(MAX_USAGE, buffer.firstLong());
        }
        if (swapCurrent != null && buffer.load(swapCurrent) && buffer.firstLong() >= 0 && memory.has(USAGE)) {
            memory.set(SWAP, buffer.firstLong() + memory.get(USAGE));
        }
        if (buffer.load(memoryStat)) {
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

        EnumSet<TaskCpuField> cpuFields = EnumSet.noneOf(TaskCpuField.class);
        long[] cpu = new long[CPU_STAT.length];
        if (buffer.load(cpuStat)) {
            long found = buffer.scan(CPU_STAT, values);
            for (int i = 0; i < CPU_STAT.length; i++) {
                if ((found & (1L << i)) != 0) {
                    cpu[i] = i == 3 ? values[i] : values[i] * 1_000L; // usec → ns
                    cpuFields.add(CPU_FIELDS[i]);
                }
            }
        }
        return new TaskRawSample(memory.build(), new TaskCpuTimes(cpu[0], cpu[1], cpu[2], cpu[3], cpu[4], cpuFields), Map.of());
    }
}
