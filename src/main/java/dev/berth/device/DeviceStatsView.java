package dev.berth.device;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A task's and an allocation's device statistics as {@code /v1/client/allocation/{id}/stats} shows them: the index's
 * latest statistics of the instances they hold, with what {@link DeviceUsage} attributed to them and the instances'
 * health added as attributes:
 * <ul>
 * <li>task view: {@value #TASK_MEMORY} (MiB), {@value #TASK_UTILIZATION} (%, when pmon reports it),
 * {@value #TASK_PROCESSES} (#) of that task on each instance;</li>
 * <li>allocation view: the same per task under {@code Stats.Nested["Tasks"].Nested[<task>]};</li>
 * <li>both: {@value #HEALTHY} (bool) and, when unhealthy, {@value #HEALTH_DESCRIPTION}. A reserved instance that
 * is unhealthy or gone appears even without statistics, so the allocation shows what it lost.</li>
 * </ul>
 */
public class DeviceStatsView {

    public static final String TASK_MEMORY = "Task memory used";

    public static final String TASK_UTILIZATION = "Task utilization";

    public static final String TASK_PROCESSES = "Task processes";

    public static final String HEALTHY = "Healthy";

    public static final String HEALTH_DESCRIPTION = "Health description";

    /** HealthDescription of a reserved instance the plugin no longer lists. */
    public static final String GONE = "device is no longer present";

    private final DeviceAllocator allocator;

    private final DeviceUsage usage;

    private final DeviceManager manager;

    public DeviceStatsView(DeviceAllocator allocator, DeviceUsage usage, DeviceManager manager) {
        this.allocator = allocator;
        this.usage = usage;
        this.manager = manager;
    }

    /** The instance's health as the node sees it now; a reserved instance no plugin lists is unhealthy ({@link #GONE}). */
    public static Map<String, DeviceInstance> instances(List<DeviceGroup> devices) {
        Map<String, DeviceInstance> byId = new HashMap<>();
        devices.forEach((group) -> group.instances().forEach((instance) -> byId.put(instance.id(), instance)));
        return byId;
    }

    public List<DeviceGroupStats> taskStats(String allocId, String task) {
        Map<String, DeviceUsage.Use> use = usage.taskUse(allocId, task);
        Set<String> ids = new LinkedHashSet<>();
        allocator.allocated(allocId, task).forEach((device) -> ids.addAll(device.ids()));
        ids.addAll(use.keySet());
        return view(ids, (id) -> useAttributes(use.get(id)), null);
    }

    public List<DeviceGroupStats> allocStats(String allocId) {
        Set<String> ids = new LinkedHashSet<>();
        for (String task : allocator.tasksWithDevices(allocId)) {
            allocator.allocated(allocId, task).forEach((device) -> ids.addAll(device.ids()));
        }
        Map<String, Map<TaskRef, DeviceUsage.Use>> byInstance = usage.snapshot().byInstance();
        return view(ids, (id) -> Map.of(), (id) -> {
            Map<TaskRef, DeviceUsage.Use> tasks = byInstance.getOrDefault(id, Map.of());
            Map<String, StatObject> perTask = new LinkedHashMap<>();
            tasks.forEach((ref, use) -> {
                if (ref.allocId().equals(allocId)) {
                    perTask.put(ref.task(), StatObject.of(useAttributes(use)));
                }
            });
            return perTask.isEmpty() ? null : new StatObject(perTask, null);
        });
    }

    private List<DeviceGroupStats> view(Set<String> ids, java.util.function.Function<String, Map<String, StatValue>> extra,
            java.util.function.Function<String, StatObject> tasksNested) {
        if (ids.isEmpty()) {
            return List.of();
        }
        Map<String, DeviceInstance> instances = instances(manager.devices());
        Map<String, DeviceAllocator.Holder> holders = allocator.holders();
        Map<DeviceGroupKey, LinkedHashMap<String, DeviceStats>> grouped = new LinkedHashMap<>();
        for (String id : ids) {
            DeviceInstance instance = instances.get(id);
            boolean healthy = instance != null && instance.healthy();
            String description = instance == null ? GONE : instance.healthDescription();
            DeviceStatsIndex.Entry entry = manager.statsIndex().get(id);
            DeviceGroupKey group = entry != null ? entry.group() : holders.containsKey(id) ? holders.get(id).group() : null;
            if (group == null || (entry == null && healthy)) {
                continue; // no statistics yet and nothing to say: skipped, as Nomad does
            }
            DeviceStats stats = entry != null ? entry.stats() : new DeviceStats(null, null, null);
            Map<String, StatValue> attributes = new LinkedHashMap<>(extra.apply(id));
            attributes.put(HEALTHY, StatValue.ofBool(healthy, "Whether the instance is healthy"));
            if (!healthy) {
                attributes.put(HEALTH_DESCRIPTION, StatValue.ofString(description, null, "Why the instance is unhealthy"));
            }
            stats = stats.withAttributes(attributes);
            StatObject nested = tasksNested == null ? null : tasksNested.apply(id);
            if (nested != null) {
                Map<String, StatObject> all = new LinkedHashMap<>(stats.stats().nested() == null ? Map.of() : stats.stats().nested());
                all.put("Tasks", nested);
                stats = new DeviceStats(stats.summary(), new StatObject(all, stats.stats().attributes()), stats.timestamp(), stats.processes());
            }
            grouped.computeIfAbsent(group, (k) -> new LinkedHashMap<>()).put(id, stats);
        }
        List<DeviceGroupStats> result = new ArrayList<>(grouped.size());
        grouped.forEach((key, stats) -> result.add(DeviceGroupStats.of(key, stats)));
        return result;
    }

    static Map<String, StatValue> useAttributes(DeviceUsage.Use use) {
        if (use == null) {
            return Map.of();
        }
        Map<String, StatValue> attributes = new LinkedHashMap<>();
        attributes.put(TASK_MEMORY, use.memoryKnown() ? StatValue.ofInt(use.memoryMib(), "MiB", "Device memory held by the task's processes")
                : StatValue.notAvailable("MiB", "Device memory held by the task's processes"));
        if (use.utilizationPercent() != null) {
            attributes.put(TASK_UTILIZATION, StatValue.ofInt(use.utilizationPercent(), "%", "Compute (SM) utilization of the task's processes"));
        }
        attributes.put(TASK_PROCESSES, StatValue.ofInt(use.processes(), "#", "The task's processes on the device"));
        return attributes;
    }
}
