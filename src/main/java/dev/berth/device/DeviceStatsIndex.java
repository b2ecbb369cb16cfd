package dev.berth.device;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The latest statistics of every device instance, indexed by instance ID and filled by the plugins' statistics streams.
 * A task's device statistics are a lookup of its reserved IDs: {@code O(reserved instances)}, not Nomad's walk over
 * every host device group per task (that costs tasks × host device groups).
 *
 * <p>Thread-safe: plugin supervisors write, REST and metrics read, without a global lock.
 */
public class DeviceStatsIndex {

    /** One instance's latest statistics and the group it belongs to. */
    public record Entry(DeviceGroupKey group, DeviceStats stats) {
    }

    private final ConcurrentHashMap<String, Entry> byInstance = new ConcurrentHashMap<>();

    private final ConcurrentHashMap<String, List<DeviceGroupStats>> byPlugin = new ConcurrentHashMap<>();

    private final List<Runnable> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Runs {@code listener} after every update (on the updating thread; it must be quick). */
    public void onUpdate(Runnable listener) {
        listeners.add(listener);
    }

    /**
     * Replaces everything {@code plugin} reported before with {@code groups}: instances it no longer reports disappear
     * from the index.
     */
    public void update(String plugin, List<DeviceGroupStats> groups) {
        List<DeviceGroupStats> previous = byPlugin.put(plugin, List.copyOf(groups));
        Set<String> current = new HashSet<>();
        for (DeviceGroupStats group : groups) {
            DeviceGroupKey key = group.key();
            group.instanceStats().forEach((id, stats) -> {
                current.add(id);
                byInstance.put(id, new Entry(key, stats));
            });
        }
        if (previous != null) {
            for (DeviceGroupStats group : previous) {
                for (String id : group.instanceStats().keySet()) {
                    if (!current.contains(id)) {
                        byInstance.remove(id);
                    }
                }
            }
        }
        listeners.forEach(Runnable::run);
    }

    /** Forgets everything {@code plugin} reported. */
    public void clear(String plugin) {
        update(plugin, List.of());
        byPlugin.remove(plugin);
    }

    /** The latest statistics of one instance, or null. */
    public Entry get(String instanceId) {
        return byInstance.get(instanceId);
    }

    /** Every group of every plugin, as last reported (for {@code /v1/client/stats} {@code DeviceStats}). */
    public List<DeviceGroupStats> all() {
        List<DeviceGroupStats> all = new ArrayList<>();
        byPlugin.values().forEach(all::addAll);
        return all;
    }

    /**
     * The statistics of these instances, grouped by device group in first-seen order. IDs without statistics (not
     * reported yet, or gone) are skipped, as in Nomad.
     */
    public List<DeviceGroupStats> lookup(Collection<String> instanceIds) {
        if (instanceIds.isEmpty()) {
            return List.of();
        }
        // Most tasks hold instances of a single group: build that one map directly.
        DeviceGroupKey only = null;
        LinkedHashMap<String, DeviceStats> single = null;
        Map<DeviceGroupKey, LinkedHashMap<String, DeviceStats>> grouped = null;
        for (String id : instanceIds) {
            Entry entry = byInstance.get(id);
            if (entry == null) {
                continue;
            }
            if (grouped == null && (only == null || only.equals(entry.group()))) {
                if (only == null) {
                    only = entry.group();
                    single = new LinkedHashMap<>(Math.max(4, instanceIds.size() * 2));
                }
                single.put(id, entry.stats());
                continue;
            }
            if (grouped == null) {
                grouped = new LinkedHashMap<>();
                grouped.put(only, single);
            }
            grouped.computeIfAbsent(entry.group(), (k) -> new LinkedHashMap<>()).put(id, entry.stats());
        }
        if (grouped == null) {
            return only == null ? List.of() : List.of(DeviceGroupStats.of(only, FrozenMap.owning(single)));
        }
        List<DeviceGroupStats> result = new ArrayList<>(grouped.size());
        grouped.forEach((key, stats) -> result.add(DeviceGroupStats.of(key, FrozenMap.owning(stats))));
        return result;
    }

    /**
     * Merges per-task device statistics into the allocation's: instances of the same group used by different tasks
     * end up in one {@link DeviceGroupStats} (Nomad concatenates, giving one entry per task).
     */
    public static List<DeviceGroupStats> merge(Collection<List<DeviceGroupStats>> perTask) {
        // A group only one task uses is taken as it is; only shared groups are copied into a merged map.
        Map<DeviceGroupKey, Object> grouped = new LinkedHashMap<>();
        for (List<DeviceGroupStats> task : perTask) {
            for (DeviceGroupStats group : task) {
                DeviceGroupKey key = group.key();
                Object seen = grouped.get(key);
                if (seen == null) {
                    grouped.put(key, group);
                }
                else if (seen instanceof DeviceGroupStats first) {
                    LinkedHashMap<String, DeviceStats> merged = new LinkedHashMap<>(first.instanceStats());
                    merged.putAll(group.instanceStats());
                    grouped.put(key, merged);
                }
                else {
                    @SuppressWarnings("unchecked")
                    LinkedHashMap<String, DeviceStats> merged = (LinkedHashMap<String, DeviceStats>) seen;
                    merged.putAll(group.instanceStats());
                }
            }
        }
        List<DeviceGroupStats> result = new ArrayList<>(grouped.size());
        grouped.forEach((key, value) -> {
            if (value instanceof DeviceGroupStats stats) {
                result.add(stats);
            }
            else {
                @SuppressWarnings("unchecked")
                LinkedHashMap<String, DeviceStats> merged = (LinkedHashMap<String, DeviceStats>) value;
                result.add(DeviceGroupStats.of(key, FrozenMap.owning(merged)));
            }
        });
        return result;
    }
}
