package dev.berth.device;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Nomad's per-task device statistics lookup, for comparison in tests and benchmarks
 * ({@code Client.computeAllocatedDeviceGroupStats}): index the task's allocated IDs by group, then walk every host
 * device group and copy the matching instances. Alloc totals then concatenate the tasks' lists.
 */
final class NomadStyleDeviceStatsWalk {

    private NomadStyleDeviceStatsWalk() {
    }

    /** @param allocated the task's allocated devices: group → instance IDs */
    static List<DeviceGroupStats> taskStats(Map<DeviceGroupKey, List<String>> allocated, List<DeviceGroupStats> host) {
        Map<DeviceGroupKey, List<String>> idx = new HashMap<>(allocated);
        List<DeviceGroupStats> result = new ArrayList<>();
        for (DeviceGroupStats group : host) {
            List<String> ids = idx.get(group.key());
            if (ids == null) {
                continue;
            }
            Map<String, DeviceStats> instances = new LinkedHashMap<>();
            for (String id : ids) {
                DeviceStats stats = group.instanceStats().get(id);
                if (stats != null) {
                    instances.put(id, stats);
                }
            }
            result.add(DeviceGroupStats.of(group.key(), instances));
        }
        return result;
    }

    /** Nomad's alloc aggregation: the tasks' slices appended. */
    static List<DeviceGroupStats> concatenate(List<List<DeviceGroupStats>> perTask) {
        List<DeviceGroupStats> all = new ArrayList<>();
        perTask.forEach(all::addAll);
        return all;
    }
}
