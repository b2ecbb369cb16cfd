package dev.berth.device;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Gives tasks device instances and remembers who holds what (persisted through {@link DeviceReservationStore}).
 * Admission calls {@link #allocate} before an allocation is accepted; the task's devices prestart hook calls
 * {@link #prepare} for the env/mounts/devices to hand to the driver; destroying the allocation calls {@link #release}.
 *
 * <p>Picks healthy instances that no other task holds, all of one group per request (as Nomad's scheduler does), or
 * honours explicitly assigned IDs ({@code AllocatedResources}). Allocation is serialized (a small critical section) so
 * two allocations can never get the same instance; the store's unique instance key backs that up.
 */
public class DeviceAllocator {

    /** Who holds an instance. */
    public record Holder(TaskRef task, DeviceGroupKey group) {
    }

    private final DeviceManager manager;

    private final DeviceReservationStore store;

    private final ConcurrentHashMap<String, Holder> byInstance = new ConcurrentHashMap<>();

    private final ConcurrentHashMap<String, Map<String, List<AllocatedDevice>>> byAlloc = new ConcurrentHashMap<>();

    private final List<Runnable> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    public DeviceAllocator(DeviceManager manager, DeviceReservationStore store) {
        this.manager = manager;
        this.store = store;
        for (DeviceReservationStore.Held held : store.loadAll()) {
            remember(held.task(), List.of(new AllocatedDevice(held.group(), List.of(held.instanceId()))));
        }
    }

    /** Runs {@code listener} after reservations change (metrics re-label their series). */
    public void onChange(Runnable listener) {
        listeners.add(listener);
    }

    private void changed() {
        listeners.forEach(Runnable::run);
    }

    /** As {@link #allocate(TaskRef, List, List)} without pre-assigned IDs. */
    public List<AllocatedDevice> allocate(TaskRef task, List<DeviceRequest> requests) throws DeviceAllocationException {
        return allocate(task, requests, List.of());
    }

    /**
     * Reserves instances for a task. Idempotent: a task that already holds devices gets the same ones back (restarts,
     * restores, re-submitted allocations). With {@code assigned} non-empty, exactly those instances are reserved
     * (each must exist in its group, be healthy and be free); otherwise each request gets {@code Count} healthy free
     * instances of the first matching group that has enough.
     *
     * @throws DeviceAllocationException when the node cannot satisfy the requests; nothing is reserved then
     */
    public synchronized List<AllocatedDevice> allocate(TaskRef task, List<DeviceRequest> requests, List<AllocatedDevice> assigned)
            throws DeviceAllocationException {
        List<AllocatedDevice> existing = allocated(task.allocId(), task.task());
        if (!existing.isEmpty()) {
            return existing;
        }
        List<DeviceGroup> devices = manager.devices();
        List<AllocatedDevice> picked = assigned.isEmpty() ? pick(devices, requests) : check(devices, assigned);
        List<DeviceReservationStore.Held> held = new ArrayList<>();
        for (AllocatedDevice device : picked) {
            device.ids().forEach((id) -> held.add(new DeviceReservationStore.Held(task, device.group(), id)));
        }
        if (!held.isEmpty()) {
            try {
                store.saveAll(held);
            }
            catch (RuntimeException ex) {
                throw new DeviceAllocationException("failed to persist device reservation: " + ex.getMessage());
            }
            remember(task, picked);
            changed();
        }
        return picked;
    }

    /**
     * Admission for a whole allocation: reserves devices for every task, or for none. On refusal whatever this call
     * reserved is released again and the exception names the task.
     *
     * @param tasks task name → its device requests
     */
    public synchronized Map<String, List<AllocatedDevice>> allocateAll(String allocId, String job, Map<String, List<DeviceRequest>> tasks)
            throws DeviceAllocationException {
        return allocateAll(allocId, job, tasks, Map.of());
    }

    /**
     * As {@link #allocateAll(String, String, Map)}, honouring explicitly assigned instances ({@code AllocatedResources
     * .Tasks[task].Devices}): a task with assigned devices gets exactly those, its requests are then not re-picked.
     *
     * @param assigned task name → devices the submitter already chose (may name tasks without requests)
     */
    public synchronized Map<String, List<AllocatedDevice>> allocateAll(String allocId, String job, Map<String, List<DeviceRequest>> tasks,
            Map<String, List<AllocatedDevice>> assigned) throws DeviceAllocationException {
        boolean heldBefore = byAlloc.containsKey(allocId);
        Set<String> names = new java.util.LinkedHashSet<>(tasks.keySet());
        names.addAll(assigned.keySet());
        Map<String, List<AllocatedDevice>> result = new LinkedHashMap<>();
        for (String name : names) {
            try {
                result.put(name, allocate(new TaskRef(allocId, job, name), tasks.getOrDefault(name, List.of()),
                        assigned.getOrDefault(name, List.of())));
            }
            catch (DeviceAllocationException ex) {
                if (!heldBefore) {
                    release(allocId);
                }
                throw new DeviceAllocationException("task \"" + name + "\": " + ex.getMessage());
            }
        }
        return result;
    }

    private List<AllocatedDevice> pick(List<DeviceGroup> devices, List<DeviceRequest> requests) throws DeviceAllocationException {
        Set<String> taken = new HashSet<>();
        List<AllocatedDevice> result = new ArrayList<>();
        for (DeviceRequest request : requests) {
            if (request.count() == 0) {
                continue;
            }
            AllocatedDevice found = null;
            int bestFree = 0;
            boolean anyGroup = false;
            for (DeviceGroup group : devices) {
                if (!request.matches(group.key())) {
                    continue;
                }
                anyGroup = true;
                List<String> free = new ArrayList<>();
                for (DeviceInstance instance : group.instances()) {
                    if (instance.healthy() && !byInstance.containsKey(instance.id()) && !taken.contains(instance.id())) {
                        free.add(instance.id());
                    }
                }
                bestFree = Math.max(bestFree, free.size());
                if (free.size() >= request.count()) {
                    found = new AllocatedDevice(group.key(), free.subList(0, request.count()));
                    break;
                }
            }
            if (found == null) {
                throw new DeviceAllocationException(anyGroup
                        ? "not enough devices for \"" + request.name() + "\": need " + request.count() + ", at most " + bestFree
                                + " healthy and unreserved in one group"
                        : "no device matches \"" + request.name() + "\"");
            }
            taken.addAll(found.ids());
            result.add(found);
        }
        return result;
    }

    private List<AllocatedDevice> check(List<DeviceGroup> devices, List<AllocatedDevice> assigned) throws DeviceAllocationException {
        Map<String, DeviceInstance> known = new LinkedHashMap<>();
        Map<String, DeviceGroupKey> groupOf = new LinkedHashMap<>();
        for (DeviceGroup group : devices) {
            for (DeviceInstance instance : group.instances()) {
                known.put(instance.id(), instance);
                groupOf.put(instance.id(), group.key());
            }
        }
        Set<String> seen = new HashSet<>();
        for (AllocatedDevice device : assigned) {
            for (String id : device.ids()) {
                DeviceInstance instance = known.get(id);
                if (instance == null || !device.group().equals(groupOf.get(id))) {
                    throw new DeviceAllocationException(new UnknownDeviceException(device.group(), device.ids()).getMessage());
                }
                if (!instance.healthy()) {
                    throw new DeviceAllocationException("device \"" + id + "\" is unhealthy: " + instance.healthDescription());
                }
                Holder holder = byInstance.get(id);
                if (holder != null || !seen.add(id)) {
                    throw new DeviceAllocationException("device \"" + id + "\" is already reserved"
                            + (holder == null ? "" : " by allocation " + holder.task().allocId() + " task " + holder.task().task()));
                }
            }
        }
        return List.copyOf(assigned);
    }

    private void remember(TaskRef task, List<AllocatedDevice> devices) {
        Map<String, List<AllocatedDevice>> tasks = byAlloc.computeIfAbsent(task.allocId(), (k) -> new ConcurrentHashMap<>());
        List<AllocatedDevice> merged = new ArrayList<>(tasks.getOrDefault(task.task(), List.of()));
        for (AllocatedDevice device : devices) {
            device.ids().forEach((id) -> byInstance.put(id, new Holder(task, device.group())));
            int same = -1;
            for (int i = 0; i < merged.size(); i++) {
                if (merged.get(i).group().equals(device.group())) {
                    same = i;
                }
            }
            if (same < 0) {
                merged.add(device);
            }
            else {
                List<String> ids = new ArrayList<>(merged.get(same).ids());
                ids.addAll(device.ids());
                merged.set(same, new AllocatedDevice(device.group(), ids));
            }
        }
        tasks.put(task.task(), List.copyOf(merged));
    }

    /** Frees everything the allocation holds (destroy/GC). Idempotent. */
    public synchronized void release(String allocId) {
        Map<String, List<AllocatedDevice>> tasks = byAlloc.remove(allocId);
        store.deleteAlloc(allocId);
        if (tasks != null) {
            tasks.values().forEach((devices) -> devices.forEach((device) -> device.ids().forEach(byInstance::remove)));
            changed();
        }
    }

    /** The devices a task holds (empty when none). */
    /** Whether any task of the allocation holds a device reservation (a map lookup). */
    public boolean holdsDevices(String allocId) {
        return byAlloc.containsKey(allocId);
    }

    public List<AllocatedDevice> allocated(String allocId, String task) {
        Map<String, List<AllocatedDevice>> tasks = byAlloc.get(allocId);
        return tasks == null ? List.of() : tasks.getOrDefault(task, List.of());
    }

    /** Every held instance and its holder (a snapshot). */
    public Map<String, Holder> holders() {
        return Map.copyOf(byInstance);
    }

    /** The names of the allocation's tasks that hold devices. */
    public Set<String> tasksWithDevices(String allocId) {
        Map<String, List<AllocatedDevice>> tasks = byAlloc.get(allocId);
        return tasks == null ? Set.of() : Set.copyOf(tasks.keySet());
    }

    /** Who holds an instance, if anyone. */
    public Optional<Holder> holder(String instanceId) {
        return Optional.ofNullable(byInstance.get(instanceId));
    }

    /**
     * The devices prestart hook: reserves the task's instances with their plugins and merges the results (env, mounts,
     * device nodes) for the driver, as Nomad's {@code device_hook} does.
     */
    public Reservation prepare(String allocId, String task) throws DeviceException, InterruptedException {
        Reservation result = Reservation.EMPTY;
        for (AllocatedDevice device : allocated(allocId, task)) {
            result = result.merge(manager.reserve(device.group(), device.ids()));
        }
        return result;
    }

    /** A task's device statistics: a lookup of its instances in the index. */
    public List<DeviceGroupStats> taskStats(String allocId, String task) {
        List<String> ids = new ArrayList<>();
        allocated(allocId, task).forEach((device) -> ids.addAll(device.ids()));
        return manager.statsIndex().lookup(ids);
    }

    /** An allocation's device statistics: its tasks' merged, one entry per group. */
    public List<DeviceGroupStats> allocStats(String allocId) {
        Map<String, List<AllocatedDevice>> tasks = byAlloc.get(allocId);
        if (tasks == null) {
            return List.of();
        }
        List<List<DeviceGroupStats>> perTask = new ArrayList<>();
        tasks.keySet().forEach((task) -> perTask.add(taskStats(allocId, task)));
        return DeviceStatsIndex.merge(perTask);
    }
}
