package dev.berth.job;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.alloc.AllocView;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.alloc.admission.HostVolumeFit;
import dev.berth.alloc.task.Interpolator;
import dev.berth.fingerprint.HostVolume;

/**
 * One reconcile pass for a job, computed and not yet carried out: what to stop, update in place and place. Nomad's
 * reconciler on one node: scale down stops the highest indexes, a destructive group change replaces allocations at most
 * {@code update.max_parallel} at a time (the next ones when the new ones run), an in-place change re-submits the allocation
 * with the new job (also a change of tasks' CPU and memory alone, {@link ResizeOnly}: the tasks are resized in place), failed allocations are replaced by the reschedule policy, complete batch allocations stay complete.
 */
record JobPlan(List<Placement> stops, List<InPlace> inPlace, List<Place> places, Map<String, Map<String, Integer>> desired) {

    /**
     * A new allocation: {@code previous} is the one it replaces (update or reschedule), {@code infeasible} a constraint
     * reason, {@code canary} a canary placed beside the allocation of its index.
     */
    record Place(String group, int index, String groupHash, Placement previous, boolean update, List<Long> reschedules,
                 String infeasible, boolean canary) {
    }

    /** What a group's canaries do in this pass: wait for a promotion, take over their index, or go. */
    enum CanaryMode { AWAIT, ADOPT, DISCARD }

    /**
     * What a group's deployment lets this pass do ({@link DeploymentPlan}): {@code budget} destructive replacements may
     * start, {@code canaries} more canaries are placed; what is placed joins {@code deploymentId} (null: none is active).
     */
    record Rollout(String deploymentId, int budget, int canaries, CanaryMode canaryMode) {
    }

    /** An allocation updated to the job's version in place; {@code groupHash} its group's hash from now on (a resize changes it). */
    record InPlace(Placement placement, String groupHash) {
    }

    static JobPlan compute(ObjectNode job, List<Placement> mine, Function<String, Optional<AllocView>> views, long nowMs,
                           Interpolator node, Function<String, Optional<HostVolume>> hostVolumes) {
        return compute(job, mine, views, nowMs, node, hostVolumes, Map.of());
    }

    /** A pass in which the groups named in {@code rollouts} follow their deployment (the others roll as without one). */
    static JobPlan compute(ObjectNode job, List<Placement> mine, Function<String, Optional<AllocView>> views, long nowMs,
                           Interpolator node, Function<String, Optional<HostVolume>> hostVolumes, Map<String, Rollout> rollouts) {
        List<Placement> stops = new ArrayList<>();
        List<InPlace> inPlace = new ArrayList<>();
        List<Place> places = new ArrayList<>();
        Map<String, Map<String, Integer>> desired = new LinkedHashMap<>();
        List<Placement> live = mine.stream().filter(p -> !p.replaced()).toList();
        Map<String, JsonNode> groups = new LinkedHashMap<>();
        job.path("TaskGroups").forEach(g -> groups.put(g.path("Name").asString(), g));
        boolean stopJob = job.path("Stop").asBoolean(false);
        for (Placement p : live) {
            if (stopJob || !groups.containsKey(p.group())) {
                stops.add(p);
            }
        }
        if (stopJob) {
            return new JobPlan(stops, inPlace, places, desired);
        }
        String type = job.path("Type").asString("service");
        boolean batch = "batch".equals(type) || "sysbatch".equals(type);
        for (JsonNode g : groups.values()) {
            String name = g.path("Name").asString();
            Map<String, Integer> counts = new LinkedHashMap<>(Map.of("Place", 0, "Stop", 0, "InPlaceUpdate", 0, "DestructiveUpdate", 0,
                    "Ignore", 0, "Migrate", 0, "Canary", 0, "Preemptions", 0));
            desired.put(name, counts);
            int count = "system".equals(type) || "sysbatch".equals(type) ? 1 : g.path("Count").asInt(1);
            String hash = GroupHash.of(g);
            String infeasible = Constraints.unmet(job, g, node);
            if (infeasible == null && !hostVolumesFit(g, hostVolumes)) {
                infeasible = HostVolumeFit.CONSTRAINT;
            }
            int maxParallel = g.path("Update").path("MaxParallel").asInt(0);
            Rollout rollout = rollouts.get(name);
            TreeMap<Integer, Placement> holders = new TreeMap<>(Comparator.reverseOrder());
            List<Placement> groupLive = live.stream().filter(p -> p.group().equals(name))
                    .sorted(Comparator.comparingLong(Placement::createIndex)).toList();
            for (Placement p : groupLive.stream().filter(p -> !p.canary()).toList()) {
                Placement older = holders.put(p.index(), p);
                if (older != null) {
                    stops.add(older);
                }
            }
            List<Placement> aside = canaries(groupLive, holders, rollout, job.path("Version").asLong(), stops);
            for (Placement p : holders.values()) {
                if (p.index() >= count) {
                    stops.add(p);
                    bump(counts, "Stop");
                }
            }
            long inflight = holders.values().stream().filter(p -> p.update() && p.index() < count
                    && ClientStatus.PENDING.equals(status(p, views))).count();
            long budget = rollout != null ? rollout.budget() : maxParallel <= 0 ? Long.MAX_VALUE : maxParallel - inflight;
            if (rollout != null && rollout.canaries() > 0) {
                int wanted = rollout.canaries();
                for (Placement h : holders.descendingMap().values()) {   // lowest index first
                    boolean shadowed = aside.stream().anyMatch(c -> c.index() == h.index());
                    if (wanted > 0 && h.index() < count && !hash.equals(h.groupHash()) && !shadowed
                            && !ClientStatus.terminal(status(h, views))) {
                        places.add(new Place(name, h.index(), hash, null, false, List.of(), infeasible, true));
                        bump(counts, "Canary");
                        wanted--;
                    }
                }
            }
            Reschedule policy = Reschedule.of(g.path("ReschedulePolicy"));
            for (int i = 0; i < count; i++) {
                Placement h = holders.get(i);
                if (h == null) {
                    places.add(new Place(name, i, hash, null, false, List.of(), infeasible, false));
                    bump(counts, "Place");
                    continue;
                }
                String status = status(h, views);
                boolean gone = h.submitted() && views.apply(h.allocId()).isEmpty() && !ClientStatus.terminal(status);
                if (ClientStatus.COMPLETE.equals(status)) {
                    if (batch) {
                        bump(counts, "Ignore");
                    } else {
                        places.add(new Place(name, i, hash, h, false, h.reschedules(), infeasible, false));
                        bump(counts, "Place");
                    }
                } else if (ClientStatus.FAILED.equals(status) || ClientStatus.LOST.equals(status) || gone) {
                    if (gone) {
                        places.add(new Place(name, i, hash, h, false, h.reschedules(), infeasible, false));
                        bump(counts, "Place");
                    } else if (!"system".equals(type) && !"sysbatch".equals(type) && policy.allowed(h.reschedules(), nowMs)) {
                        Duration delay = policy.delayAfter(h.reschedules().size());
                        long failedAt = h.failedAt() == null ? nowMs : h.failedAt();
                        if (nowMs >= failedAt + delay.toMillis()) {
                            List<Long> history = new ArrayList<>(h.reschedules());
                            history.add(nowMs);
                            places.add(new Place(name, i, hash, h, false, history, infeasible, false));
                            bump(counts, "Place");
                        } else {
                            bump(counts, "Ignore");
                        }
                    } else {
                        bump(counts, "Ignore");
                    }
                } else if (!hash.equals(h.groupHash()) && !ResizeOnly.change(g, h.groupHash(), views.apply(h.allocId()))) {
                    if (budget > 0) {
                        places.add(new Place(name, i, hash, h, true, List.of(), infeasible, false));
                        budget--;
                    }
                    bump(counts, "DestructiveUpdate");
                } else if (h.jobVersion() != job.path("Version").asLong() || !hash.equals(h.groupHash())) {
                    inPlace.add(new InPlace(h, hash));
                    bump(counts, "InPlaceUpdate");
                } else {
                    bump(counts, "Ignore");
                }
            }
        }
        return new JobPlan(stops, inPlace, places, desired);
    }

    /**
     * Sorts the group's live canaries: one alone at its index holds it (promoted earlier, or what it stood beside is
     * gone); one beside a holder waits for the promotion (returned), takes the index over (the holder stops) or stops,
     * as the rollout says. A canary of another job version never waits.
     */
    private static List<Placement> canaries(List<Placement> groupLive, Map<Integer, Placement> holders, Rollout rollout,
                                            long version, List<Placement> stops) {
        CanaryMode mode = rollout == null ? CanaryMode.DISCARD : rollout.canaryMode();
        List<Placement> aside = new ArrayList<>();
        for (Placement c : groupLive.stream().filter(Placement::canary).toList()) {
            Placement holder = holders.get(c.index());
            if (holder == null) {
                holders.put(c.index(), c);
            } else if (mode == CanaryMode.AWAIT && c.jobVersion() == version) {
                aside.add(c);
            } else if (mode == CanaryMode.ADOPT && c.jobVersion() == version) {
                holders.put(c.index(), c);
                stops.add(holder);
            } else {
                stops.add(c);
            }
        }
        return aside;
    }

    private static void bump(Map<String, Integer> counts, String key) {
        counts.merge(key, 1, Integer::sum);
    }

    static String status(Placement p, Function<String, Optional<AllocView>> views) {
        return views.apply(p.allocId()).map(v -> v.record().clientStatus())
                .orElse(p.lastStatus() == null ? ClientStatus.PENDING : p.lastStatus());
    }

    /** Whether the node offers every host volume of group {@code g} (its {@code Volumes} of type {@code host}). */
    private static boolean hostVolumesFit(JsonNode g, Function<String, Optional<HostVolume>> hostVolumes) {
        for (JsonNode v : g.path("Volumes")) {
            if ("host".equals(v.path("Type").asString("")) && HostVolumeFit.unmet(v.path("Source").asString(""),
                    v.path("ReadOnly").asBoolean(false), hostVolumes) != null) {
                return false;
            }
        }
        return true;
    }
}
