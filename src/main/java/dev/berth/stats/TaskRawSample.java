package dev.berth.stats;

import java.util.Map;

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

    /** One process of the task. */
    public record Proc(TaskMemoryStats memory, TaskCpuTimes cpu) {
    }
}
