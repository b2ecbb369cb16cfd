package dev.berth.job;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

import tools.jackson.databind.node.ObjectNode;

import dev.berth.alloc.AllocManager;
import dev.berth.alloc.AllocView;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.alloc.task.Interpolator;
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

    private final JobRegistry jobs;
    private final AllocManager allocs;
    private final Clock clock;
    private final Supplier<Map<String, String>> nodeAttributes;
    private final Function<String, Optional<HostVolume>> hostVolumes;
    private final PlacementBook book;
    private final AllocSubmitter submitter;
    private final PassEvaluations evals;
    private final KickLoop loop;
    private final Deployments deployments;
    private final NodeDrain drain;
    private final DrainWatcher drainWatcher;

    public LocalScheduler(JobRegistry jobs, AllocManager allocs, JobStore store, ChangeFeed feed, Clock clock,
                          Supplier<Map<String, String>> nodeAttributes, Function<String, Optional<HostVolume>> hostVolumes,
                          Deployments deployments, NodeDrain drain) {
        this.jobs = jobs;
        this.deployments = deployments;
        deployments.onEvaluation(this::kick);
        this.allocs = allocs;
        this.clock = clock;
        this.nodeAttributes = nodeAttributes;
        this.hostVolumes = hostVolumes;
        this.drain = drain;
        this.book = new PlacementBook(store);
        this.submitter = new AllocSubmitter(allocs, feed);
        this.evals = new PassEvaluations(jobs);
        this.drainWatcher = new DrainWatcher(drain, book, allocs, deployments, jobs, clock, this::migrate);
        // a pass with no job and no drain does nothing: the loop sleeps until a registration (or a kick) while there is none
        this.loop = new KickLoop("berth-scheduler", java.time.Duration.ofSeconds(1), this::reconcileAll,
                () -> jobs.anyJob(job -> true) || drain.draining());
        jobs.onRegistration(loop::recheckPeriodic);
        drain.onChange(new NodeDrain.Scheduler() {
            @Override
            public void kick() {
                loop.kick();
            }

            @Override
            public List<String> nodeEvaluations() {
                return LocalScheduler.this.nodeEvaluations();
            }
        });
    }

    /** Starts the loop (after allocations were restored, so a restart finds every placed allocation). */
    public void start() {
        drain.restore();
        loop.start();
    }

    /** Asks for a pass now; {@code evalId} (may be null) is finished by that pass. */
    public void kick(String namespace, String jobId, String evalId) {
        if (evalId != null) {
            evals.kicked(JobRegistry.key(namespace, jobId), evalId);
        }
        loop.kick();
    }

    /** Whether the loop runs (for the lifecycle). */
    public boolean running() {
        return loop.running();
    }

    /** One pass over every job (also called directly by tests and the plan endpoint's callers). */
    public synchronized void reconcileAll() {
        drainWatcher.step();
        for (ObjectNode job : jobs.jobs()) {
            reconcile(job);
        }
    }

    /** The allocation IDs the scheduler placed for the job, oldest first. */
    public List<Placement> placements(String namespace, String jobId) {
        return book.ofJob(namespace, jobId);
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
        return book.get(allocId).map(Placement::evalId);
    }

    /** What the scheduler placed as {@code allocId}, if it did. */
    public Optional<Placement> placement(String allocId) {
        return book.get(allocId);
    }

    /** The allocation placed to replace {@code allocId} (an update or a reschedule), if any. */
    public Optional<String> replacementOf(String allocId) {
        return book.replacementOf(allocId);
    }

    private void reconcile(ObjectNode job) {
        String ns = job.path("Namespace").asString();
        String id = job.path("ID").asString();
        String key = JobRegistry.key(ns, id);
        if (job.hasNonNull("Periodic") || job.hasNonNull("ParameterizedJob") && !job.path("Dispatched").asBoolean(false)) {
            evals.finishPending(key, "complete", "", null);   // templates never run themselves
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
        boolean eligible = drain.eligible();
        for (JobPlan.Place place : plan.places()) {
            if (place.infeasible() != null) {
                failed.put(place.group(), PlacementFailure.infeasible(place.infeasible()));
                continue;
            }
            if (!eligible || !place(job, place, deploymentOf(rollouts, place.group()))) {
                ObjectNode f = failed.get(place.group());
                if (f == null) {
                    failed.put(place.group(), eligible ? PlacementFailure.exhausted()
                            : PlacementFailure.noEligibleNode(job.path("Datacenters").path(0).asString("dc1")));
                } else {
                    f.put("CoalescedFailures", f.path("CoalescedFailures").asInt() + 1);
                }
            }
        }
        evals.finish(job, failed);
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
                book.save(p.withStatus(status, failedAt));
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
        long index = submitter.nextIndex();
        Placement p = new Placement(UUID.randomUUID().toString(), job.path("Namespace").asString(), job.path("ID").asString(),
                place.group(), place.index(), job.path("Version").asLong(), place.groupHash(), prev == null ? null : prev.allocId(),
                place.reschedules(), false, false, null, null, place.update(), index, evals.evalFor(job), deploymentId, place.canary());
        book.save(p);
        if (deploymentId != null) {
            deployments.joined(deploymentId, p.allocId());
        }
        if (!submitNew(job, p)) {
            book.remove(p);
            return false;
        }
        if (prev != null && !place.update()) {
            book.save(book.current(prev).asReplaced());
        }
        if (prev != null) {
            allocs.touch(prev.allocId()); // its NextAllocation changed: its ModifyIndex moves and its watchers wake
        }
        return true;
    }

    private boolean submitNew(ObjectNode job, Placement p) {
        if (!submitter.submitNew(job, p)) {
            return false;
        }
        book.save(p.asSubmitted());
        return true;
    }

    /** Updates the allocation in place; false when it is a resize (its group hash changes) that the node refused to admit. */
    private boolean submitExisting(ObjectNode job, JobPlan.InPlace u, String deploymentId) {
        Placement p = u.placement();
        return switch (submitter.submitExisting(job, p)) {
            case SUBMITTED -> {
                book.save(p.withVersion(job.path("Version").asLong(), u.groupHash(), evals.evalFor(job), deploymentId));
                if (deploymentId != null) {
                    deployments.joined(deploymentId, p.allocId());
                }
                yield true;
            }
            case NOT_ADMITTED -> u.groupHash().equals(p.groupHash()); // a resize that does not fit: replace instead
            case INVALID -> true;
        };
    }

    private void stop(Placement p) {
        submitter.submitStop(p);
        book.save(p.asReplaced());
    }

    /** A drain stops the allocation; it keeps its index, so the pass asks for its replacement once it is complete. */
    private void migrate(Placement p) {
        submitter.submitStop(p);
        loop.kick();
    }

    /** Forgets the placements of a purged job whose allocations are all terminal or gone. */
    public synchronized void forget(String namespace, String jobId) {
        for (Placement p : placements(namespace, jobId)) {
            book.remove(p);
        }
        deployments.forget(namespace, jobId);
    }

    /** One {@code node-update} evaluation, kicked, per job with placements on this node (the node turned eligible). */
    private List<String> nodeEvaluations() {
        List<String> out = new ArrayList<>();
        book.all().stream().map(p -> JobRegistry.key(p.namespace(), p.jobId())).distinct().forEach(key -> {
            for (ObjectNode job : jobs.jobs()) {
                if (JobRegistry.key(job.path("Namespace").asString(), job.path("ID").asString()).equals(key)) {
                    String eval = jobs.createEval(job, "node-update").path("ID").asString();
                    out.add(eval);
                    kick(job.path("Namespace").asString(), job.path("ID").asString(), eval);
                }
            }
        });
        return out;
    }

    @Override
    public void close() {
        loop.stop();
    }

    /** Placements of every job, for listings. */
    List<Placement> all() {
        return book.all();
    }
}
