package dev.berth.api;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.berth.alloc.AllocManager;
import dev.berth.api.AllocStatsDtos.AllocResourceUsage;
import dev.berth.device.DeviceAllocator;
import dev.berth.device.DeviceStatsView;
import dev.berth.stats.AllocStats;
import dev.berth.stats.TaskMemoryEventsCollector;
import dev.berth.stats.TaskStatsCollector;
import dev.berth.stats.TaskPressureCollector;
import dev.berth.stats.TaskStatsSnapshot;

/**
 * {@code /v1/client/allocation/{id}/stats} (any method, as Nomad): the allocation's latest task snapshots as Nomad's
 * {@code AllocResourceUsage}. Reads snapshots only; never the kernel. {@code ?task=} filters to one task. Device
 * statistics come from {@link AllocDeviceStats} (index lookups of the reserved instances).
 *
 * <p>The response only changes when the collector publishes (once per collection interval), so the built response is
 * kept per allocation and task filter until the allocation's snapshots change: a monitoring system polling many
 * times per tick costs a lookup and serialisation, not a rebuild. Device statistics are folded in per request (they
 * come from the device plugins' own cadence), and only for allocations that hold devices.
 */
@RestController
class AllocStatsController {

    private final AllocManager allocs;
    private final TaskStatsCollector collector;
    private final DeviceAllocator devices;
    private final TaskPressureCollector pressure;
    private final TaskMemoryEventsCollector memoryEvents;
    private final DeviceStatsView deviceStats;
    /** Keyed by alloc ID + NUL + task filter; emptied at every publish, so entries of destroyed allocs do not pile up. */
    private final Map<String, Built> built = new ConcurrentHashMap<>();

    AllocStatsController(AllocManager allocs, TaskStatsCollector collector, DeviceAllocator devices, DeviceStatsView deviceStats,
            TaskPressureCollector pressure, TaskMemoryEventsCollector memoryEvents) {
        this.deviceStats = deviceStats;
        this.memoryEvents = memoryEvents;
        this.allocs = allocs;
        this.pressure = pressure;
        this.collector = collector;
        this.devices = devices;
        collector.addListener(published -> built.clear());
    }

    @RequestMapping("/v1/client/allocation/{id}/stats")
    AllocResourceUsage stats(@PathVariable String id, @RequestParam(name = "task", required = false) String task) {
        if (!allocs.exists(id)) {
            throw new ApiException.NotFound("Unknown allocation \"" + id + "\"");
        }
        String filter = task == null ? "" : task;
        List<TaskStatsSnapshot> snapshots = collector.snapshotsOf(id);
        String key = id + '\0' + filter;
        Built cached = built.get(key);
        AllocResourceUsage usage;
        if (cached != null && sameSnapshots(cached.snapshots(), snapshots)) { // same published samples: nothing changed
            usage = cached.usage();
        } else {
            usage = AllocResourceUsage.of(AllocStats.of(snapshots, filter),
                    s -> pressure.pressure(s.target().allocId(), s.target().task()).orElse(null),
                    s -> memoryEvents.events(s.target().allocId(), s.target().task()).orElse(null));
            if (!snapshots.isEmpty()) { // no task running: cheap to build, and kept out of the cache, which is
                built.put(key, new Built(snapshots, usage)); // emptied only when the task stats publish
            }
        }
        return devices.holdsDevices(id) ? AllocDeviceStats.withDeviceStats(usage, id, filter, deviceStats) : usage;
    }

    /** Whether both lists hold the same snapshot objects (each tick publishes new snapshots, never changes one). */
    private static boolean sameSnapshots(List<TaskStatsSnapshot> a, List<TaskStatsSnapshot> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) != b.get(i)) {
                return false;
            }
        }
        return true;
    }

    /** A response built from one published snapshot list (its snapshots compared by identity). */
    private record Built(List<TaskStatsSnapshot> snapshots, AllocResourceUsage usage) {
    }
}
