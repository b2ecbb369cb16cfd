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
 * with the new job, failed allocations are replaced by the reschedule policy, complete batch allocations stay complete.
 */
record JobPlan(List<Placement> stops, List<InPlace> inPlace, List<Place> places, Map<String, Map<String, Integer>> desired) {

    /** A new allocation: {@code previous} is the one it replaces (update or reschedule), {@code infeasible} a constraint reason. */
    record Place(String group, int index, String groupHash, Placement previous, boolean update, List<Long> reschedules,
                 String infeasible) {
    }

    record InPlace(Placement placement) {
    }

    static JobPlan compute(ObjectNode job, List<Placement> mine, Function<String, Optional<AllocView>> views, long nowMs,
                           Interpolator node, Function<String, Optional<HostVolume>> hostVolumes) {
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
            TreeMap<Integer, Placement> holders = new TreeMap<>(Comparator.reverseOrder());
            for (Placement p : live.stream().filter(p -> p.group().equals(name)).sorted(Comparator.comparingLong(Placement::createIndex)).toList()) {
                Placement older = holders.put(p.index(), p);
                if (older != null) {
                    stops.add(older);
                }
            }
            for (Placement p : holders.values()) {
                if (p.index() >= count) {
                    stops.add(p);
                    bump(counts, "Stop");
                }
            }
            long inflight = holders.values().stream().filter(p -> p.update() && p.index() < count
                    && ClientStatus.PENDING.equals(status(p, views))).count();
            long budget = maxParallel <= 0 ? Long.MAX_VALUE : maxParallel - inflight;
            Reschedule policy = Reschedule.of(g.path("ReschedulePolicy"));
            for (int i = 0; i < count; i++) {
                Placement h = holders.get(i);
                if (h == null) {
                    places.add(new Place(name, i, hash, null, false, List.of(), infeasible));
                    bump(counts, "Place");
                    continue;
                }
                String status = status(h, views);
                boolean gone = h.submitted() && views.apply(h.allocId()).isEmpty() && !ClientStatus.terminal(status);
                if (ClientStatus.COMPLETE.equals(status)) {
                    if (batch) {
                        bump(counts, "Ignore");
                    } else {
                        places.add(new Place(name, i, hash, h, false, h.reschedules(), infeasible));
                        bump(counts, "Place");
                    }
                } else if (ClientStatus.FAILED.equals(status) || ClientStatus.LOST.equals(status) || gone) {
                    if (gone) {
                        places.add(new Place(name, i, hash, h, false, h.reschedules(), infeasible));
                        bump(counts, "Place");
                    } else if (!"system".equals(type) && !"sysbatch".equals(type) && policy.allowed(h.reschedules(), nowMs)) {
                        Duration delay = policy.delayAfter(h.reschedules().size());
                        long failedAt = h.failedAt() == null ? nowMs : h.failedAt();
                        if (nowMs >= failedAt + delay.toMillis()) {
                            List<Long> history = new ArrayList<>(h.reschedules());
                            history.add(nowMs);
                            places.add(new Place(name, i, hash, h, false, history, infeasible));
                            bump(counts, "Place");
                        } else {
                            bump(counts, "Ignore");
                        }
                    } else {
                        bump(counts, "Ignore");
                    }
                } else if (!hash.equals(h.groupHash())) {
                    if (budget > 0) {
                        places.add(new Place(name, i, hash, h, true, List.of(), infeasible));
                        budget--;
                    }
                    bump(counts, "DestructiveUpdate");
                } else if (h.jobVersion() != job.path("Version").asLong()) {
                    inPlace.add(new InPlace(h));
                    bump(counts, "InPlaceUpdate");
                } else {
                    bump(counts, "Ignore");
                }
            }
        }
        return new JobPlan(stops, inPlace, places, desired);
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
