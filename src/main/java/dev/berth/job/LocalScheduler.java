package dev.berth.job;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.alloc.admission.AdmissionException;
import dev.berth.alloc.AllocManager;
import dev.berth.alloc.AllocView;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.alloc.task.Interpolator;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.JobSpec;
import dev.berth.alloc.spec.SpecValidationException;
import dev.berth.events.ChangeFeed;
import dev.berth.fingerprint.HostVolume;

/**
 * Places jobs on this node: one loop (a virtual thread) reconciles every job with its allocations when kicked (a job
 * registered or stopped) and once a second (blocked placements, reschedule delays, alloc status changes) while there
 * is any job; with none it sleeps until one is registered. Each job gets
 * {@code count} allocations per group named {@code job.group[i]}, submitted through {@link AllocManager#submit} (validation
 * and admission as for any allocation). The plan of one pass is {@link JobPlan}; this class carries it out.
 */
public class LocalScheduler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LocalScheduler.class);

    private final JobRegistry jobs;
    private final AllocManager allocs;
    private final JobStore store;
    private final ChangeFeed feed;
    private final Clock clock;
    private final Supplier<Map<String, String>> nodeAttributes;
    private final Function<String, Optional<HostVolume>> hostVolumes;
    private final JsonMapper json = JsonMapper.builder().build();
    private final Map<String, Placement> placements = new ConcurrentHashMap<>();
    /** Per job key: the open eval waiting for this pass and the blocked eval, if any. */
    private final Map<String, String> pendingEval = new ConcurrentHashMap<>();
    private final Map<String, String> blockedEval = new ConcurrentHashMap<>();
    /** Replaced allocation ID → the ID of the allocation that replaced it (Nomad's {@code NextAllocation}). */
    private final Map<String, String> replacements = new ConcurrentHashMap<>();
    private final KickLoop loop;
    private final Deployments deployments;

    public LocalScheduler(JobRegistry jobs, AllocManager allocs, JobStore store, ChangeFeed feed, Clock clock,
                          Supplier<Map<String, String>> nodeAttributes, Function<String, Optional<HostVolume>> hostVolumes,
                          Deployments deployments) {
        this.jobs = jobs;
        this.deployments = deployments;
        deployments.onEvaluation(this::kick);
        this.allocs = allocs;
        this.store = store;
        this.feed = feed;
        this.clock = clock;
        this.nodeAttributes = nodeAttributes;
        this.hostVolumes = hostVolumes;
        // a pass with no job does nothing: the loop sleeps until a registration (or a kick) while there is none
        this.loop = new KickLoop("berth-scheduler", java.time.Duration.ofSeconds(1), this::reconcileAll,
                () -> jobs.anyJob(job -> true));
        jobs.onRegistration(loop::recheckPeriodic);
        for (JobStore.Document d : store.placements()) {
            Placement p = json.readValue(d.json(), Placement.class);
            placements.put(p.allocId(), p);
            linkReplacement(p);
        }
        for (ObjectNode e : jobs.evals()) {
            if ("blocked".equals(e.path("Status").asString())) {
                blockedEval.put(JobRegistry.key(e.path("Namespace").asString(), e.path("JobID").asString()), e.path("ID").asString());
            }
        }
    }

    /** Starts the loop (after allocations were restored, so a restart finds every placed allocation). */
    public void start() {
        loop.start();
    }

    /** Asks for a pass now; {@code evalId} (may be null) is finished by that pass. */
    public void kick(String namespace, String jobId, String evalId) {
        if (evalId != null) {
            pendingEval.put(JobRegistry.key(namespace, jobId), evalId);
        }
        loop.kick();
    }

    /** Whether the loop runs (for the lifecycle). */
    public boolean running() {
        return loop.running();
    }

    /** One pass over every job (also called directly by tests and the plan endpoint's callers). */
    public synchronized void reconcileAll() {
        for (ObjectNode job : jobs.jobs()) {
            reconcile(job);
        }
    }

    /** The allocation IDs the scheduler placed for the job, oldest first. */
    public List<Placement> placements(String namespace, String jobId) {
        return placements.values().stream().filter(p -> p.namespace().equals(namespace) && p.jobId().equals(jobId))
                .sorted(Comparator.comparingLong(Placement::createIndex)).toList();
    }

    /** What a pass would do for {@code job} now, without doing it. */
    public JobPlan plan(ObjectNode job) {
        return plan(job, Map.of());
    }

    private JobPlan plan(ObjectNode job, Map<String, JobPlan.Rollout> rollouts) {
        return JobPlan.compute(job, placements(job.path("Namespace").asString(), job.path("ID").asString()), this::view, clock.millis(),
                Interpolator.forNode(nodeAttributes.get()), hostVolumes, rollouts);
    }

    Optional<AllocView> view(String allocId) {
        return allocs.get(allocId);
    }

    /** The evaluation whose pass placed the allocation or last updated it in place, if this scheduler placed it. */
    public Optional<String> evalOf(String allocId) {
        return Optional.ofNullable(placements.get(allocId)).map(Placement::evalId);
    }

    /** What the scheduler placed as {@code allocId}, if it did. */
    public Optional<Placement> placement(String allocId) {
        return Optional.ofNullable(placements.get(allocId));
    }

    /** The allocation placed to replace {@code allocId} (an update or a reschedule), if any. */
    public Optional<String> replacementOf(String allocId) {
        return Optional.ofNullable(replacements.get(allocId));
    }

    /** The evaluation a placement of this pass belongs to: the kicked one, else the blocked one it unblocks, else (a
     *  reschedule found by the loop) a new {@code alloc-failure} one, which the pass finishes as it would a kicked one. */
    private String evalFor(ObjectNode job) {
        String key = JobRegistry.key(job.path("Namespace").asString(), job.path("ID").asString());
        String blocked = blockedEval.get(key);
        if (blocked != null && !pendingEval.containsKey(key)) {
            return blocked;
        }
        return pendingEval.computeIfAbsent(key, k -> jobs.createEval(job, "alloc-failure").path("ID").asString());
    }

    private void reconcile(ObjectNode job) {
        String ns = job.path("Namespace").asString();
        String id = job.path("ID").asString();
        String key = JobRegistry.key(ns, id);
        if (job.hasNonNull("Periodic") || job.hasNonNull("ParameterizedJob") && !job.path("Dispatched").asBoolean(false)) {
            finishPending(key, "complete", "", null);   // templates never run themselves
            jobs.setStatus(ns, id, job.path("Stop").asBoolean() ? "dead" : "running");
            return;
        }
        refreshStatuses(ns, id);
        Map<String, JobPlan.Rollout> rollouts = deployments.step(job, placements(ns, id));
        JobPlan plan = plan(job, rollouts);
        Map<String, ObjectNode> failed = new LinkedHashMap<>();
        for (Placement p : plan.stops()) {
            stop(p);
        }
        for (JobPlan.InPlace u : plan.inPlace()) {
            String deployment = deploymentOf(rollouts, u.placement().group());
            if (!submitExisting(job, u, deployment)) { // a resize the node cannot admit: Nomad's destructive update instead
                Placement h = u.placement();
                place(job, new JobPlan.Place(h.group(), h.index(), u.groupHash(), h, true, List.of(), null, false), deployment);
            }
        }
        for (JobPlan.Place place : plan.places()) {
            if (place.infeasible() != null) {
                failed.put(place.group(), PlacementFailure.of(json, place, true));
                continue;
            }
            if (!place(job, place, deploymentOf(rollouts, place.group()))) {
                ObjectNode f = failed.get(place.group());
                if (f == null) {
                    failed.put(place.group(), PlacementFailure.of(json, place, false));
                } else {
                    f.put("CoalescedFailures", f.path("CoalescedFailures").asInt() + 1);
                }
            }
        }
        boolean infeasible = failed.values().stream().anyMatch(f -> f.path("ConstraintFiltered").size() > 0);
        if (failed.isEmpty()) {
            finishPending(key, "complete", "", null);
            String blocked = blockedEval.remove(key);
            if (blocked != null) {
                jobs.finishEval(blocked, "complete", "", null);
            }
        } else if (infeasible) {
            finishPending(key, "failed", "constraints not met on this node", json.valueToTree(failed));
        } else {
            ObjectNode tree = json.valueToTree(failed);
            String blocked = blockedEval.computeIfAbsent(key, k -> {
                ObjectNode b = jobs.createEval(job, "queued-allocs");
                jobs.finishEval(b.path("ID").asString(), "blocked", "created to place remaining allocations", tree);
                return b.path("ID").asString();
            });
            String pending = pendingEval.remove(key);
            if (pending != null) {
                jobs.finishEval(pending, "complete", "", tree);
                jobs.eval(pending).ifPresent(e -> e.put("BlockedEval", blocked));
            }
        }
        jobs.setStatus(ns, id, status(job));
    }

    private String status(ObjectNode job) {
        List<Placement> mine = placements(job.path("Namespace").asString(), job.path("ID").asString());
        boolean live = mine.stream().anyMatch(p -> !ClientStatus.terminal(statusOf(p)) && !p.replaced());
        if (live) {
            return "running";
        }
        if (job.path("Stop").asBoolean() || !mine.isEmpty() && !"service".equals(job.path("Type").asString())) {
            return "dead";
        }
        return "pending";
    }

    private String statusOf(Placement p) {
        return allocs.get(p.allocId()).map(v -> v.record().clientStatus()).orElse(p.lastStatus() == null ? "pending" : p.lastStatus());
    }

    private void refreshStatuses(String ns, String id) {
        for (Placement p : placements(ns, id)) {
            Optional<AllocView> v = allocs.get(p.allocId());
            if (v.isEmpty()) {
                if (!p.submitted()) {
                    resubmitLost(ns, id, p);
                }
                continue;
            }
            String status = v.get().record().clientStatus();
            Long failedAt = p.failedAt() == null && (ClientStatus.FAILED.equals(status) || ClientStatus.LOST.equals(status))
                    ? Long.valueOf(clock.millis()) : p.failedAt();
            if (!status.equals(p.lastStatus()) || !java.util.Objects.equals(failedAt, p.failedAt())) {
                save(p.withStatus(status, failedAt));
            }
        }
    }

    /** A placement written before a crash whose allocation never reached the submission path: submit the same ID now. */
    private void resubmitLost(String ns, String id, Placement p) {
        jobs.versions(ns, id).stream().filter(j -> j.path("Version").asLong() == p.jobVersion()).findFirst()
                .ifPresent(job -> submitNew(job, p));
    }

    private static String deploymentOf(Map<String, JobPlan.Rollout> rollouts, String group) {
        JobPlan.Rollout r = rollouts.get(group);
        return r == null ? null : r.deploymentId();
    }

    private boolean place(ObjectNode job, JobPlan.Place place, String deploymentId) {
        Placement prev = place.previous();
        if (prev != null && place.update() && !prev.replaced()) {
            stop(prev);
        }
        long index = nextIndex();
        Placement p = new Placement(UUID.randomUUID().toString(), job.path("Namespace").asString(), job.path("ID").asString(),
                place.group(), place.index(), job.path("Version").asLong(), place.groupHash(), prev == null ? null : prev.allocId(),
                place.reschedules(), false, false, null, null, place.update(), index, evalFor(job), deploymentId, place.canary());
        save(p);
        if (deploymentId != null) {
            deployments.joined(deploymentId, p.allocId());
        }
        if (!submitNew(job, p)) {
            remove(p);
            return false;
        }
        if (prev != null && !place.update()) {
            save(placements.getOrDefault(prev.allocId(), prev).asReplaced());
        }
        if (prev != null) {
            allocs.touch(prev.allocId()); // its NextAllocation changed: its ModifyIndex moves and its watchers wake
        }
        return true;
    }

    private boolean submitNew(ObjectNode job, Placement p) {
        try {
            allocs.submit(p.allocId(), spec(job, p, AllocationSpec.DESIRED_RUN, p.createIndex()));
            save(p.asSubmitted());
            return true;
        } catch (AdmissionException e) {
            log.debug("{} does not fit yet: {}", p.name(), e.getMessage());
            return false;
        } catch (SpecValidationException e) {
            log.warn("{} refused: {}", p.name(), e.getMessage());
            return false;
        }
    }

    /** Updates the allocation in place; false when it is a resize (its group hash changes) that the node refused to admit. */
    private boolean submitExisting(ObjectNode job, JobPlan.InPlace u, String deploymentId) {
        Placement p = u.placement();
        try {
            allocs.submit(p.allocId(), spec(job, p, AllocationSpec.DESIRED_RUN, nextIndex()));
            save(p.withVersion(job.path("Version").asLong(), u.groupHash(), evalFor(job), deploymentId));
            if (deploymentId != null) {
                deployments.joined(deploymentId, p.allocId());
            }
            return true;
        } catch (AdmissionException | SpecValidationException e) {
            log.warn("In-place update of {} refused: {}", p.name(), e.getMessage());
            return !(e instanceof AdmissionException) || u.groupHash().equals(p.groupHash());
        }
    }

    private void stop(Placement p) {
        Optional<AllocView> v = allocs.get(p.allocId());
        if (v.isPresent() && !v.get().record().spec().desiredTerminal()) {
            AllocationSpec spec = v.get().record().spec();
            try {
                allocs.submit(p.allocId(), new AllocationSpec(spec.id(), spec.name(), spec.namespace(), spec.jobId(), spec.job(),
                        spec.taskGroup(), AllocationSpec.DESIRED_STOP, nextIndex(), spec.previousAllocation(), spec.allocatedResources()));
            } catch (AdmissionException | SpecValidationException e) {
                log.warn("Stopping {} refused: {}", p.name(), e.getMessage());
            }
        }
        save(p.asReplaced());
    }

    private AllocationSpec spec(ObjectNode job, Placement p, String desired, long modifyIndex) {
        JobSpec js = json.treeToValue(job, JobSpec.class);
        return new AllocationSpec(p.allocId(), p.name(), p.namespace(), p.jobId(), js, p.group(), desired, modifyIndex,
                p.previousAlloc(), null);
    }

    private long nextIndex() {
        try (var pending = feed.begin()) {
            return pending.index();
        }
    }

    private void save(Placement p) {
        placements.put(p.allocId(), p);
        linkReplacement(p);
        store.putPlacement(new JobStore.Document(p.allocId(), p.namespace(), p.jobId(), json.writeValueAsString(p)));
    }

    private void linkReplacement(Placement p) {
        if (p.previousAlloc() != null) {
            replacements.put(p.previousAlloc(), p.allocId());
        }
    }

    private void remove(Placement p) {
        placements.remove(p.allocId());
        if (p.previousAlloc() != null) {
            replacements.remove(p.previousAlloc(), p.allocId());
        }
        store.deletePlacement(p.allocId());
    }

    /** Forgets the placements of a purged job whose allocations are all terminal or gone. */
    public synchronized void forget(String namespace, String jobId) {
        for (Placement p : placements(namespace, jobId)) {
            remove(p);
        }
        deployments.forget(namespace, jobId);
    }

    private void finishPending(String key, String status, String description, JsonNode failed) {
        String evalId = pendingEval.remove(key);
        if (evalId != null) {
            jobs.finishEval(evalId, status, description, failed);
        }
    }

    @Override
    public void close() {
        loop.stop();
    }

    /** Placements of every job, for listings. */
    List<Placement> all() {
        return new ArrayList<>(placements.values());
    }
}
