package dev.berth.alloc.admission;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import dev.berth.host.CoreSet;
import dev.berth.host.cgroup.CpuPartition;

/**
 * Hands out whole CPU cores to tasks that reserve them ({@code resources { cores = N }}): the lowest free reservable
 * IDs, all of an allocation's tasks together or none. Every change is told to a listener as the node's new
 * {@link CpuPartition} (the cgroups then move tasks without reserved cores off the reserved ones). Thread-safe.
 */
public final class CoreAllocator {

    private final Consumer<CpuPartition> listener;
    /** Guarded by {@code this}: alloc ID → task name → its cores. */
    private final Map<String, Map<String, CoreSet>> held = new LinkedHashMap<>();
    /** Guarded by {@code this}: the reservable cores last seen. */
    private CoreSet reservable = CoreSet.EMPTY;

    public CoreAllocator(Consumer<CpuPartition> listener) {
        this.listener = listener;
    }

    /**
     * Reserves {@code asked} cores (task name → count, counts above 0) for {@code allocId}.
     *
     * @param reservable the node's reservable cores now
     * @return the cores given, per task asking
     * @throws AdmissionException (resource {@code cores}) when the tasks ask for more than is reservable or free; nothing
     *                            is reserved then
     */
    public synchronized Map<String, CoreSet> reserve(String allocId, Map<String, Integer> asked, CoreSet reservable)
            throws AdmissionException {
        this.reservable = reservable;
        int total = asked.values().stream().mapToInt(Integer::intValue).sum();
        if (total == 0) {
            return Map.of();
        }
        if (total > reservable.size()) {
            throw new AdmissionException("cores", "Resources exhausted on node: cores (asked " + total + ", the node has "
                    + reservable.size() + " reservable: " + describe(reservable) + ")");
        }
        List<Integer> free = new ArrayList<>(reservable.minus(reserved()).ids());
        if (total > free.size()) {
            throw new AdmissionException("cores", "Resources exhausted on node: cores (asked " + total + ", " + free.size()
                    + " of " + reservable.size() + " reservable cores free: " + describe(CoreSet.of(free)) + ")");
        }
        Map<String, CoreSet> given = new LinkedHashMap<>();
        for (var entry : asked.entrySet()) {
            if (entry.getValue() > 0) {
                List<Integer> take = new ArrayList<>(free.subList(0, entry.getValue()));
                free.removeAll(take);
                given.put(entry.getKey(), CoreSet.of(take));
            }
        }
        held.put(allocId, given);
        publish();
        return given;
    }

    /**
     * Agent start: a restored allocation holds the cores its persisted {@code AllocatedResources} name again. Cores
     * already held by another allocation, or no longer reservable, are left out and returned (the caller logs them).
     */
    public synchronized CoreSet claim(String allocId, Map<String, CoreSet> cores, CoreSet reservable) {
        this.reservable = reservable;
        CoreSet taken = reserved();
        CoreSet refused = CoreSet.EMPTY;
        Map<String, CoreSet> kept = new LinkedHashMap<>();
        for (var entry : cores.entrySet()) {
            CoreSet bad = entry.getValue().intersect(taken).union(entry.getValue().minus(reservable));
            refused = refused.union(bad);
            CoreSet good = entry.getValue().minus(bad);
            if (!good.isEmpty()) {
                kept.put(entry.getKey(), good);
                taken = taken.union(good);
            }
        }
        if (!kept.isEmpty()) {
            held.put(allocId, kept);
        }
        publish();
        return refused;
    }

    /** The node's reservable cores are {@code reservable} (at start, before any reservation): told to the listener. */
    public synchronized void reservable(CoreSet reservable) {
        this.reservable = reservable;
        publish();
    }

    /** The allocation's cores are free again (idempotent). */
    public synchronized void release(String allocId) {
        if (held.remove(allocId) != null) {
            publish();
        }
    }

    /** Every core held now. */
    public synchronized CoreSet reserved() {
        return partition().reserved();
    }

    /** The node's partition now: the reservable cores and who holds which. */
    public synchronized CpuPartition partition() {
        List<CpuPartition.Reservation> reservations = new ArrayList<>();
        held.forEach((alloc, tasks) -> tasks.forEach((task, cores) -> reservations.add(new CpuPartition.Reservation(alloc, task, cores))));
        return new CpuPartition(reservable, reservations);
    }

    private void publish() {
        listener.accept(partition());
    }

    private static String describe(CoreSet cores) {
        return cores.isEmpty() ? "none" : cores.toString();
    }
}
