package dev.berth.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import dev.berth.alloc.AllocExceptions.UnknownAllocException;
import dev.berth.alloc.AllocManager;
import dev.berth.alloc.AllocView;
import dev.berth.device.DeviceAllocator;
import dev.berth.device.DeviceGroupStats;

/**
 * Interim per-allocation device statistics until {@code GET /v1/client/allocation/{id}/stats} (branch
 * {@code cgroupstats}) lands and carries them: the alloc-level {@code DeviceStats} (the tasks' groups <em>merged</em>, one
 * entry per group, unlike Nomad's concatenation) and each task's {@code DeviceStats}, in the shape the alloc stats use.
 */
@RestController
class AllocDeviceStatsController {

    /** Alloc-level device statistics plus per-task ones. */
    record AllocDeviceStats(@JsonProperty("DeviceStats") List<DeviceGroupStats> deviceStats,
            @JsonProperty("Tasks") Map<String, TaskDeviceStats> tasks) {
    }

    record TaskDeviceStats(@JsonProperty("DeviceStats") List<DeviceGroupStats> deviceStats) {
    }

    private final AllocManager allocs;

    private final DeviceAllocator allocator;

    AllocDeviceStatsController(AllocManager allocs, DeviceAllocator allocator) {
        this.allocs = allocs;
        this.allocator = allocator;
    }

    /**
     * For {@code GET /v1/client/allocation/{id}/stats} once it is served (branch {@code cgroupstats}): the same usage with
     * each task's {@code DeviceStats} (its reserved instances; left as is, null, for a task without devices) and the
     * alloc-level {@code DeviceStats} set to the tasks' groups merged (one entry per group, {@code []} when none).
     */
    static AllocStatsDtos.AllocResourceUsage withDeviceStats(AllocStatsDtos.AllocResourceUsage usage, String allocId,
            DeviceAllocator allocator) {
        Map<String, AllocStatsDtos.TaskResourceUsageDto> tasks = null;
        if (usage.tasks() != null) {
            tasks = new LinkedHashMap<>();
            for (var entry : usage.tasks().entrySet()) {
                var task = entry.getValue();
                var ru = task.resourceUsage();
                List<DeviceGroupStats> devices = allocator.taskStats(allocId, entry.getKey());
                tasks.put(entry.getKey(), new AllocStatsDtos.TaskResourceUsageDto(new AllocStatsDtos.ResourceUsage(ru.memoryStats(),
                        ru.cpuStats(), devices.isEmpty() ? ru.deviceStats() : List.copyOf(devices)), task.timestamp(), task.pids()));
            }
        }
        var top = usage.resourceUsage();
        return new AllocStatsDtos.AllocResourceUsage(new AllocStatsDtos.ResourceUsage(top.memoryStats(), top.cpuStats(),
                List.copyOf(allocator.allocStats(allocId))), tasks, usage.timestamp());
    }

    @GetMapping("/v1/client/allocation/{id}/devices/stats")
    AllocDeviceStats stats(@PathVariable String id) throws UnknownAllocException {
        AllocView view = allocs.get(id).orElseThrow(() -> new UnknownAllocException(id));
        Map<String, TaskDeviceStats> tasks = new LinkedHashMap<>();
        view.record().spec().group().orElseThrow().tasks()
                .forEach(t -> tasks.put(t.name(), new TaskDeviceStats(allocator.taskStats(id, t.name()))));
        return new AllocDeviceStats(allocator.allocStats(id), tasks);
    }
}
