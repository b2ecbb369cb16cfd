package dev.berth.host.cgroup;

import java.util.List;
import java.util.Objects;

import dev.berth.host.CoreSet;

/**
 * How the node's reservable cores are split between tasks: each task with reserved cores ({@code resources { cores = N }})
 * runs on its own, every other task on the rest, the shared partition (Nomad's {@code reserve} and {@code share}).
 *
 * @param reservable   the cores tasks may run on at all (the agent's own allowed cpuset, or
 *                     {@code berth.client.reservable-cores})
 * @param reservations the tasks holding cores now
 */
public record CpuPartition(CoreSet reservable, List<Reservation> reservations) {

    /** No core reserved: every task shares {@code reservable}. */
    public static CpuPartition unreserved(CoreSet reservable) {
        return new CpuPartition(reservable, List.of());
    }

    public CpuPartition {
        Objects.requireNonNull(reservable, "'reservable' must not be null");
        reservations = List.copyOf(reservations);
    }

    /** One task's reserved cores. */
    public record Reservation(String allocId, String taskName, CoreSet cores) {
        public Reservation {
            Objects.requireNonNull(allocId, "'allocId' must not be null");
            Objects.requireNonNull(taskName, "'taskName' must not be null");
            Objects.requireNonNull(cores, "'cores' must not be null");
        }
    }

    /** Every reserved core. */
    public CoreSet reserved() {
        CoreSet all = CoreSet.EMPTY;
        for (Reservation r : reservations) {
            all = all.union(r.cores());
        }
        return all;
    }

    /**
     * The cores of tasks without reserved cores: the reservable ones nobody holds. When every reservable core is held,
     * they share all of them (as Nomad's share partition, whose empty cpuset means its parent's): a task is never left
     * with no core to run on.
     */
    public CoreSet shared() {
        CoreSet free = reservable.minus(reserved());
        return free.isEmpty() ? reservable : free;
    }

    /** The cores {@code allocId}'s {@code taskName} holds, empty when it shares. */
    public CoreSet coresOf(String allocId, String taskName) {
        return reservations.stream().filter(r -> r.allocId().equals(allocId) && r.taskName().equals(taskName))
                .map(Reservation::cores).findFirst().orElse(CoreSet.EMPTY);
    }
}
