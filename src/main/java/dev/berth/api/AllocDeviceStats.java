package dev.berth.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.berth.device.DeviceStatsView;
import dev.berth.device.DeviceGroupStats;

/**
 * Folds device statistics into Nomad's {@code AllocResourceUsage} for {@code /v1/client/allocation/{id}/stats}: each
 * reported task's {@code DeviceStats} is a lookup of its reserved instances (left null for a task without devices, as
 * Nomad), and the alloc-level {@code DeviceStats} are the tasks' groups <em>merged</em> (one entry per group; Nomad
 * concatenates the tasks' lists so a shared group appears once per task), {@code []} when none.
 */
final class AllocDeviceStats {

    private AllocDeviceStats() {
    }

    /** @param task the {@code ?task=} filter, or null: the alloc-level stats are then only that task's */
    static AllocStatsDtos.AllocResourceUsage withDeviceStats(AllocStatsDtos.AllocResourceUsage usage, String allocId, String task,
            DeviceStatsView allocator) {
        Map<String, AllocStatsDtos.TaskResourceUsageDto> tasks = null;
        if (usage.tasks() != null) {
            tasks = new LinkedHashMap<>();
            for (var entry : usage.tasks().entrySet()) {
                var taskUsage = entry.getValue();
                var ru = taskUsage.resourceUsage();
                List<DeviceGroupStats> devices = allocator.taskStats(allocId, entry.getKey());
                tasks.put(entry.getKey(), new AllocStatsDtos.TaskResourceUsageDto(new AllocStatsDtos.ResourceUsage(ru.memoryStats(),
                        ru.cpuStats(), devices.isEmpty() ? ru.deviceStats() : List.copyOf(devices)), taskUsage.timestamp(), taskUsage.pids(),
                        taskUsage.pressure(), taskUsage.memoryEvents()));
            }
        }
        var top = usage.resourceUsage();
        List<DeviceGroupStats> merged = task == null || task.isEmpty() ? allocator.allocStats(allocId) : allocator.taskStats(allocId, task);
        return new AllocStatsDtos.AllocResourceUsage(new AllocStatsDtos.ResourceUsage(top.memoryStats(), top.cpuStats(),
                List.copyOf(merged)), tasks, usage.timestamp());
    }
}
