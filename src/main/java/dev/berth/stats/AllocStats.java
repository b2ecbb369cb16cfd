package dev.berth.stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Nomad's {@code AllocResourceUsage} built from task snapshots ({@code allocRunner.LatestAllocStats}): every numeric
 * field summed over the running tasks (Percent too), {@code Measured} the union in first-seen order, the timestamp the
 * latest among them. Only registered (running) tasks have snapshots, so every task in {@link #tasks()} is summed.
 *
 * @param usage            the sum over the tasks
 * @param memoryMeasured   union of the tasks' memory {@code Measured}, first-seen order
 * @param cpuMeasured      union of the tasks' CPU {@code Measured}, first-seen order
 * @param tasks            snapshot per task name
 * @param timestampNanos   the largest task timestamp, UnixNano; 0 without tasks
 */
public record AllocStats(TaskResourceUsage usage, List<String> memoryMeasured, List<String> cpuMeasured,
        Map<String, TaskStatsSnapshot> tasks, long timestampNanos) {

    public AllocStats {
        memoryMeasured = List.copyOf(memoryMeasured);
        cpuMeasured = List.copyOf(cpuMeasured);
        tasks = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(tasks));
    }

    /**
     * @param snapshots  the allocation's task snapshots
     * @param taskFilter only this task ({@code ?task=}); null or empty for all. An unknown name gives no tasks, not an error.
     */
    public static AllocStats of(List<TaskStatsSnapshot> snapshots, String taskFilter) {
        TaskResourceUsage sum = TaskResourceUsage.NONE;
        LinkedHashSet<String> memory = new LinkedHashSet<>();
        LinkedHashSet<String> cpu = new LinkedHashSet<>();
        Map<String, TaskStatsSnapshot> tasks = new LinkedHashMap<>();
        long timestamp = 0;
        List<TaskStatsSnapshot> ordered = new ArrayList<>(snapshots);
        ordered.sort(java.util.Comparator.comparing(s -> s.target().task()));
        for (TaskStatsSnapshot snapshot : ordered) {
            if (taskFilter != null && !taskFilter.isEmpty() && !taskFilter.equals(snapshot.target().task())) {
                continue;
            }
            tasks.put(snapshot.target().task(), snapshot);
            sum = sum.plus(snapshot.usage());
            memory.addAll(snapshot.usage().memory().measured());
            cpu.addAll(snapshot.usage().cpu().measured());
            timestamp = Math.max(timestamp, snapshot.timestampNanos());
        }
        return new AllocStats(sum, List.copyOf(memory), List.copyOf(cpu), tasks, timestamp);
    }
}
