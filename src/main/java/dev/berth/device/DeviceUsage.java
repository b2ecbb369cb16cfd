package dev.berth.device;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who uses which device instance: after every statistics update, the processes the plugins saw on <em>reserved</em>
 * instances are attributed to tasks through {@link ProcessOwners} (cgroup or process tree), summed per (instance, task)
 * into an immutable snapshot that REST and metrics read. A process on a reserved instance that belongs to no task of
 * the holding allocation is <em>foreign</em>: listed in the snapshot and told once to the {@link ForeignProcessListener}s.
 * Processes on free instances are not judged (nobody was promised them).
 */
public class DeviceUsage {

    private static final Logger log = LoggerFactory.getLogger(DeviceUsage.class);

    /**
     * One task's use of one instance.
     *
     * @param memoryMib          device memory its processes hold (MiB), summed over those that report it
     * @param memoryKnown        whether any of its processes reported memory
     * @param utilizationPercent summed SM utilization of its processes, null when none reported one
     * @param processes          how many of its processes use the instance
     */
    public record Use(long memoryMib, boolean memoryKnown, Long utilizationPercent, int processes) {

        Use plus(DeviceProcess process) {
            Long util = utilizationPercent;
            if (process.utilizationPercent() != null) {
                util = (util == null ? 0 : util) + process.utilizationPercent();
            }
            return new Use(memoryMib + (process.usedMemoryMib() == null ? 0 : process.usedMemoryMib()),
                    memoryKnown || process.usedMemoryMib() != null, util, processes + 1);
        }
    }

    /**
     * @param byInstance instance → task → its use (only reserved instances with attributed processes)
     * @param foreign    instance → processes on it that belong to no task of the holding allocation
     * @param holders    the holder of each instance in {@code byInstance} or {@code foreign}
     * @param groups     the group of each such instance
     */
    public record Snapshot(Map<String, Map<TaskRef, Use>> byInstance, Map<String, List<DeviceProcess>> foreign,
            Map<String, TaskRef> holders, Map<String, DeviceGroupKey> groups) {

        static final Snapshot EMPTY = new Snapshot(Map.of(), Map.of(), Map.of(), Map.of());
    }

    private final DeviceStatsIndex index;

    private final DeviceAllocator allocator;

    private final ProcessOwners owners;

    private final List<ForeignProcessListener> foreignListeners;

    private final List<Runnable> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    private volatile Snapshot snapshot = Snapshot.EMPTY;

    /** (instance, pid) pairs reported foreign at the last update: a pair is told again only after it was gone. */
    private Set<String> foreignSeen = Set.of();

    public DeviceUsage(DeviceStatsIndex index, DeviceAllocator allocator, ProcessOwners owners,
            List<ForeignProcessListener> foreignListeners) {
        this.index = index;
        this.allocator = allocator;
        this.owners = owners;
        this.foreignListeners = List.copyOf(foreignListeners);
        index.onUpdate(this::update);
    }

    /** Runs {@code listener} after every recomputation (metrics reconcile their series). */
    public void onChange(Runnable listener) {
        listeners.add(listener);
    }

    public Snapshot snapshot() {
        return snapshot;
    }

    /** Recomputes the snapshot from the index's latest processes; called after every statistics update. */
    public synchronized void update() {
        Map<String, DeviceAllocator.Holder> holders = allocator.holders();
        Map<String, List<DeviceProcess>> seen = new HashMap<>();
        Set<Long> pids = new HashSet<>();
        Set<String> allocIds = new HashSet<>();
        holders.forEach((id, holder) -> {
            DeviceStatsIndex.Entry entry = index.get(id);
            if (entry != null && !entry.stats().processes().isEmpty()) {
                seen.put(id, entry.stats().processes());
                entry.stats().processes().forEach((p) -> pids.add(p.pid()));
                allocIds.add(holder.task().allocId());
            }
        });
        Map<Long, TaskRef> owner;
        try {
            owner = pids.isEmpty() ? Map.of() : owners.owners(pids, allocIds);
        }
        catch (RuntimeException ex) {
            log.warn("attributing device processes failed", ex);
            return;
        }
        Map<String, Map<TaskRef, Use>> byInstance = new HashMap<>();
        Map<String, List<DeviceProcess>> foreign = new HashMap<>();
        Map<String, TaskRef> holderOf = new HashMap<>();
        Map<String, DeviceGroupKey> groupOf = new HashMap<>();
        seen.forEach((id, processes) -> {
            DeviceAllocator.Holder holder = holders.get(id);
            holderOf.put(id, holder.task());
            groupOf.put(id, holder.group());
            for (DeviceProcess process : processes) {
                TaskRef task = owner.get(process.pid());
                if (task != null && task.allocId().equals(holder.task().allocId())) {
                    task = new TaskRef(task.allocId(), holder.task().job(), task.task()); // one job label per allocation
                    byInstance.computeIfAbsent(id, (k) -> new LinkedHashMap<>())
                            .merge(task, new Use(0, false, null, 0).plus(process), (a, b) -> a.plus(process));
                }
                else {
                    foreign.computeIfAbsent(id, (k) -> new ArrayList<>()).add(process);
                }
            }
        });
        Set<String> nowForeign = new HashSet<>();
        foreign.forEach((id, processes) -> processes.forEach((process) -> {
            String key = id + "/" + process.pid();
            nowForeign.add(key);
            if (!foreignSeen.contains(key)) {
                for (ForeignProcessListener listener : foreignListeners) {
                    try {
                        listener.foreignProcess(id, groupOf.get(id), process, holderOf.get(id));
                    }
                    catch (RuntimeException ex) {
                        log.warn("foreign process listener {} failed", listener, ex);
                    }
                }
            }
        }));
        foreignSeen = nowForeign;
        snapshot = new Snapshot(freeze(byInstance), Map.copyOf(foreign), Map.copyOf(holderOf), Map.copyOf(groupOf));
        listeners.forEach(Runnable::run);
    }

    private static Map<String, Map<TaskRef, Use>> freeze(Map<String, Map<TaskRef, Use>> byInstance) {
        Map<String, Map<TaskRef, Use>> frozen = new HashMap<>();
        byInstance.forEach((id, tasks) -> frozen.put(id, java.util.Collections.unmodifiableMap(tasks)));
        return Map.copyOf(frozen);
    }

    /** Instance → this task's use, for the instances its allocation holds and it runs processes on. */
    public Map<String, Use> taskUse(String allocId, String task) {
        Map<String, Use> result = new LinkedHashMap<>();
        snapshot.byInstance().forEach((id, tasks) -> tasks.forEach((ref, use) -> {
            if (ref.allocId().equals(allocId) && ref.task().equals(task)) {
                result.put(id, use);
            }
        }));
        return result;
    }
}
