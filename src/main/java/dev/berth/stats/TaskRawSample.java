package dev.berth.stats;

import java.util.Map;
import java.util.Set;

/**
 * What one read of a task's kernel files returned, before CPU rates are derived.
 *
 * @param memory memory of the whole task
 * @param cpu    cumulative CPU counters of the whole task
 * @param pids   per-process figures keyed by pid (only the /proc reader has them; empty otherwise)
 */
public record TaskRawSample(TaskMemoryStats memory, TaskCpuTimes cpu, Map<Long, Proc> pids) {

    public static final TaskRawSample NONE = new TaskRawSample(TaskMemoryStats.NONE, TaskCpuTimes.NONE, Map.of());

    public TaskRawSample {
        pids = Map.copyOf(pids);
    }

    /**
     * A cgroup reader's sample from its figures: {@code previous} itself when every figure is the same (an idle task),
     * else a new sample that keeps {@code previous}'s memory or CPU part when that part is the same.
     *
     * @param cpuFields bits of the measured {@link TaskCpuField} ordinals
     */
    static TaskRawSample next(TaskRawSample previous, TaskMemoryStats.Builder memory, long totalNs, long userNs,
            long systemNs, long throttledPeriods, long throttledNs, int cpuFields) {
        Set<TaskCpuField> cpuSet = FieldSets.CPU.ofMask(cpuFields);
        boolean sameMemory = previous != null && memory.sameAs(previous.memory);
        TaskCpuTimes cpu = previous == null ? null : previous.cpu;
        boolean sameCpu = cpu != null && cpu.totalNs() == totalNs && cpu.userNs() == userNs
                && cpu.systemNs() == systemNs && cpu.throttledPeriods() == throttledPeriods
                && cpu.throttledNs() == throttledNs && cpu.fields() == cpuSet;
        if (sameMemory && sameCpu) {
            return previous;
        }
        return new TaskRawSample(sameMemory ? previous.memory : memory.build(), sameCpu ? cpu
                : new TaskCpuTimes(totalNs, userNs, systemNs, throttledPeriods, throttledNs, cpuSet), Map.of());
    }

    /** One process of the task. */
    public record Proc(TaskMemoryStats memory, TaskCpuTimes cpu) {
    }
}
