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

    @GetMapping("/v1/client/allocation/{id}/devices/stats")
    AllocDeviceStats stats(@PathVariable String id) throws UnknownAllocException {
        AllocView view = allocs.get(id).orElseThrow(() -> new UnknownAllocException(id));
        Map<String, TaskDeviceStats> tasks = new LinkedHashMap<>();
        view.record().spec().group().orElseThrow().tasks()
                .forEach(t -> tasks.put(t.name(), new TaskDeviceStats(allocator.taskStats(id, t.name()))));
        return new AllocDeviceStats(allocator.allocStats(id), tasks);
    }
}
