package dev.berth.api;

import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.berth.alloc.AllocManager;
import dev.berth.api.AllocStatsDtos.AllocResourceUsage;
import dev.berth.device.DeviceAllocator;
import dev.berth.stats.AllocStats;
import dev.berth.stats.TaskStatsCollector;

/**
 * {@code /v1/client/allocation/{id}/stats} (any method, as Nomad): the allocation's latest task snapshots as Nomad's
 * {@code AllocResourceUsage}. Reads snapshots only; never the kernel. {@code ?task=} filters to one task. Device
 * statistics come from {@link AllocDeviceStats} (index lookups of the reserved instances).
 */
@RestController
class AllocStatsController {

    private final AllocManager allocs;
    private final TaskStatsCollector collector;
    private final DeviceAllocator devices;

    AllocStatsController(AllocManager allocs, TaskStatsCollector collector, DeviceAllocator devices) {
        this.allocs = allocs;
        this.collector = collector;
        this.devices = devices;
    }

    @RequestMapping("/v1/client/allocation/{id}/stats")
    AllocResourceUsage stats(@PathVariable String id, @RequestParam(name = "task", required = false) String task) {
        if (allocs.get(id).isEmpty()) {
            throw new ApiException.NotFound("Unknown allocation \"" + id + "\"");
        }
        return AllocDeviceStats.withDeviceStats(AllocResourceUsage.of(AllocStats.of(collector.snapshotsOf(id), task)), id, task, devices);
    }
}
