package dev.berth.job;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.berth.fingerprint.NodeScheduling.DrainStrategy;

/**
 * One step of the node's drain, computed and not yet carried out (Nomad's drainer, on one node where every allocation
 * is on the draining node and a replacement has nowhere to go).
 *
 * <ul>
 *   <li>Service allocations are stopped by group, as Nomad's drainer counts: of the group's {@code count}, at least
 *       {@code count - migrate.max_parallel} must stay healthy, so a step stops {@code healthy - (count - max_parallel)}
 *       more (never more than are left). Their replacements cannot be placed here, so once the first
 *       {@code max_parallel} are stopped the rest wait for the deadline.</li>
 *   <li>Batch allocations run on until the deadline.</li>
 *   <li>System allocations are stopped last, when no service or batch allocation is left (never with
 *       {@code IgnoreSystemJobs}).</li>
 *   <li>At the deadline (at once for a negative one) every allocation left is stopped and the drain is done.</li>
 * </ul>
 *
 * @param stop            allocations to stop now (marked as migrating)
 * @param done            the drain is complete after these stops
 * @param deadlineReached it completes because its deadline passed
 */
record NodeDrainPlan(List<String> stop, boolean done, boolean deadlineReached) {

    /** How the job's scheduler type sorts an allocation for the drain. */
    enum Kind { SERVICE, BATCH, SYSTEM }

    /**
     * A live or finished allocation on the node.
     *
     * @param groupKey    its job and group (service allocations are counted per group)
     * @param count       the group's {@code count}
     * @param maxParallel the group's {@code migrate.max_parallel}
     * @param terminal    it is told to stop, or its client status is terminal (Nomad's {@code TerminalStatus})
     * @param healthy     it runs and is healthy, from a migration's standpoint
     * @param migrating   the drain already stopped it
     */
    record Alloc(String allocId, Kind kind, String groupKey, int count, int maxParallel, boolean terminal, boolean healthy,
                 boolean migrating) {
    }

    static NodeDrainPlan compute(DrainStrategy drain, Instant now, List<Alloc> allocs) {
        List<Alloc> stoppable = allocs.stream().filter(a -> !a.terminal() && !a.migrating()
                && (a.kind() != Kind.SYSTEM || !drain.ignoreSystemJobs())).toList();
        if (drain.deadlined(now)) {
            return new NodeDrainPlan(ids(stoppable), true, true);
        }
        List<String> stop = services(allocs);
        boolean othersLeft = allocs.stream().anyMatch(a -> !a.terminal() && a.kind() != Kind.SYSTEM
                && !stop.contains(a.allocId()));
        if (othersLeft) {
            return new NodeDrainPlan(stop, false, false);
        }
        List<String> all = new ArrayList<>(stop);
        all.addAll(ids(stoppable.stream().filter(a -> a.kind() == Kind.SYSTEM).toList()));
        return new NodeDrainPlan(all, true, false);
    }

    /** Nomad's drainer count per group: stop {@code healthy - (count - max_parallel)} of those not yet stopped. */
    private static List<String> services(List<Alloc> allocs) {
        Map<String, List<Alloc>> groups = new LinkedHashMap<>();
        allocs.stream().filter(a -> a.kind() == Kind.SERVICE).forEach(a -> groups.computeIfAbsent(a.groupKey(), k -> new ArrayList<>()).add(a));
        List<String> out = new ArrayList<>();
        for (List<Alloc> group : groups.values()) {
            Alloc first = group.get(0);
            long healthy = group.stream().filter(a -> !a.terminal() && a.healthy()).count();
            List<Alloc> drainable = group.stream().filter(a -> !a.terminal() && !a.migrating()).toList();
            long n = Math.min(healthy - (first.count() - first.maxParallel()), drainable.size());
            drainable.stream().limit(Math.max(0, n)).forEach(a -> out.add(a.allocId()));
        }
        return out;
    }

    private static List<String> ids(List<Alloc> allocs) {
        return allocs.stream().map(Alloc::allocId).toList();
    }
}
