package dev.berth.job;

import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.alloc.AllocManager;
import dev.berth.alloc.AllocView;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.alloc.task.TaskState;
import dev.berth.events.ChangeFeed;
import dev.berth.events.Topic;

/**
 * The node's deployments (Nomad's deployment watcher): each scheduler pass asks {@link #step} for a job's
 * {@link DeploymentPlan}, which this class carries out (stores the deployment, records allocation health, reverts to the
 * stable version, marks the version stable) before the pass places what the rollout allows. Health is judged on the
 * injected clock by {@link AllocHealth}. The deployment endpoints (promote, pause, fail, allocation health) change a
 * deployment here and ask for a pass. Persisted through the {@link JobStore} (so a restart continues a deployment) and
 * published on the change feed (topic {@code Deployment}). Thread-safe: every change is serialized on this object.
 */
public class Deployments {

    /** Asks the scheduler for a pass that finishes evaluation {@code evalId}. */
    interface Kick {
        void kick(String namespace, String jobId, String evalId);
    }

    /** A deployment with what Nomad keeps on its allocations: their health, and when each joined (its healthy deadline). */
    record Tracked(Deployment deployment, Map<String, Deployment.AllocStatus> allocs, Map<String, Long> joined) {
        Tracked {
            allocs = Map.copyOf(allocs);
            joined = Map.copyOf(joined);
        }
    }

    private final JobRegistry registry;
    private final JobStore store;
    private final ChangeFeed feed;
    private final Clock clock;
    private final AllocManager allocs;
    private final Function<String, Collection<String>> checkStatuses;
    private final JsonMapper json = JsonMapper.builder().build();
    private final Map<String, Tracked> byId = new ConcurrentHashMap<>();
    /** Allocation ID → since when all of its checks pass without a break (the health tracker's memory; not persisted). */
    private final Map<String, Instant> passingSince = new ConcurrentHashMap<>();
    private volatile Kick kick = (ns, id, eval) -> { };

    /**
     * @param checkStatuses an allocation's armed service checks' statuses ({@code success}, {@code failure}, {@code pending})
     */
    public Deployments(JobRegistry registry, JobStore store, ChangeFeed feed, Clock clock, AllocManager allocs,
                       Function<String, Collection<String>> checkStatuses) {
        this.registry = registry;
        this.store = store;
        this.feed = feed;
        this.clock = clock;
        this.allocs = allocs;
        this.checkStatuses = checkStatuses;
        for (JobStore.Document d : store.deployments()) {
            Tracked t = json.readValue(d.json(), Tracked.class);
            byId.put(t.deployment().id(), t);
        }
    }

    /** Where the deployment's own evaluations (a promotion, a revert) are handed for a pass. */
    void onEvaluation(Kick k) {
        this.kick = k;
    }

    /** One step of the job's deployment (see {@link DeploymentPlan}), carried out; returns the rollouts for the pass. */
    synchronized Map<String, JobPlan.Rollout> step(ObjectNode job, List<Placement> placements) {
        String ns = JobService.ns(job);
        String id = JobService.id(job);
        Optional<Tracked> latest = latest(ns, id);
        Instant now = clock.instant();
        Map<String, AllocHealth.Verdict> verdicts = new LinkedHashMap<>();
        latest.ifPresent(t -> verdicts.putAll(verdicts(job, t, placements, now)));
        DeploymentPlan plan = DeploymentPlan.compute(new DeploymentPlan.Input(job, registry.versions(ns, id),
                latest.map(Tracked::deployment).orElse(null), latest.map(Tracked::allocs).orElse(Map.of()), placements, verdicts,
                now, UUID.randomUUID().toString()));
        if (plan.cancelled() != null && latest.isPresent() && !plan.cancelled().id().equals(plan.deployment().id())) {
            save(new Tracked(plan.cancelled(), latest.get().allocs(), latest.get().joined()));
        }
        if (plan.deployment() != null) {
            Tracked before = byId.get(plan.deployment().id());
            Map<String, Deployment.AllocStatus> statuses = new LinkedHashMap<>(before == null ? Map.of() : before.allocs());
            Tracked after = new Tracked(plan.deployment(), statuses, before == null ? Map.of() : before.joined());
            if (!plan.health().isEmpty() || before == null || !same(before.deployment(), plan.deployment())) {
                long index = save(after, plan.health());
                plan.health().keySet().forEach(allocs::touch);
                if (index > 0 && plan.revertTo() != null) {
                    revert(job, plan.revertTo());
                }
            }
        }
        if (plan.markStable()) {
            registry.setStable(ns, id, job.path("Version").asLong(), true);
        }
        return plan.rollouts();
    }

    /** An allocation the pass placed (or updated in place) joins the deployment: its healthy deadline starts now. */
    synchronized void joined(String deploymentId, String allocId) {
        Tracked t = byId.get(deploymentId);
        if (t != null) {
            Map<String, Long> joined = new LinkedHashMap<>(t.joined());
            joined.put(allocId, clock.millis());
            Map<String, Deployment.AllocStatus> statuses = new LinkedHashMap<>(t.allocs());
            statuses.remove(allocId);
            byId.put(deploymentId, new Tracked(t.deployment(), statuses, joined));
            persist(byId.get(deploymentId));
        }
    }

    private Map<String, AllocHealth.Verdict> verdicts(ObjectNode job, Tracked t, List<Placement> placements, Instant now) {
        Map<String, AllocHealth.Verdict> out = new LinkedHashMap<>();
        for (Placement p : placements) {
            if (!t.deployment().id().equals(p.deploymentId()) || p.replaced() || t.allocs().containsKey(p.allocId())) {
                continue;
            }
            JsonNode group = group(job, p.group());
            UpdateStrategy s = group == null ? null : UpdateStrategy.of(group);
            Optional<AllocView> view = allocs.get(p.allocId());
            if (s == null || view.isEmpty()) {
                continue;
            }
            Instant joinedAt = Instant.ofEpochMilli(t.joined().getOrDefault(p.allocId(), now.toEpochMilli()));
            out.put(p.allocId(), AllocHealth.judge(s, observe(view.get(), group, joinedAt, now), now));
        }
        return out;
    }

    /** What the health tracker sees: failed tasks, since when every task runs, how many checks pass since when. */
    private AllocHealth.Observation observe(AllocView view, JsonNode group, Instant joinedAt, Instant now) {
        String failed = null;
        Instant up = null;
        boolean allUp = !view.taskStates().isEmpty();
        for (Map.Entry<String, TaskState> e : view.taskStates().entrySet()) {
            TaskState ts = e.getValue();
            if (ts.failed() || ClientStatus.FAILED.equals(view.record().clientStatus())) {
                failed = e.getKey();
            }
            if (ts.running()) {
                Instant since = ts.startedAt() == null ? now : ts.startedAt();
                since = ts.lastRestart() != null && ts.lastRestart().isAfter(since) ? ts.lastRestart() : since;
                up = up == null || since.isAfter(up) ? since : up;
            } else if (!ts.dead() || ts.failed()) {
                allUp = false;
            }
        }
        String allocId = view.record().id();
        int expected = expectedChecks(group);
        Collection<String> statuses = checkStatuses.apply(allocId);
        boolean passing = statuses.size() >= expected && statuses.stream().allMatch("success"::equals);
        Instant passSince = passing ? passingSince.computeIfAbsent(allocId, k -> now) : null;
        if (!passing) {
            passingSince.remove(allocId);
        }
        return new AllocHealth.Observation(joinedAt, failed != null, failed, allUp ? up : null, expected, passSince);
    }

    /** The group's and its tasks' checks of Nomad-provided services (those Berth probes). */
    private static int expectedChecks(JsonNode group) {
        int n = 0;
        List<JsonNode> services = new java.util.ArrayList<>();
        group.path("Services").forEach(services::add);
        group.path("Tasks").forEach(t -> t.path("Services").forEach(services::add));
        for (JsonNode s : services) {
            if ("nomad".equals(s.path("Provider").asString(""))) {
                n += s.path("Checks").size();
            }
        }
        return n;
    }

    private static JsonNode group(ObjectNode job, String name) {
        for (JsonNode g : job.path("TaskGroups")) {
            if (name.equals(g.path("Name").asString())) {
                return g;
            }
        }
        return null;
    }

    private void revert(ObjectNode failedJob, long version) {
        String ns = JobService.ns(failedJob);
        String id = JobService.id(failedJob);
        registry.versions(ns, id).stream().filter(v -> v.path("Version").asLong() == version).findFirst().ifPresent(stable -> {
            try {
                JobRegistry.Registered reg = registry.register(stable.deepCopy(), null);
                ObjectNode eval = registry.createEval(reg.job(), "deployment-watcher");
                kick.kick(ns, id, eval.path("ID").asString());
            } catch (JobException e) {
                throw new IllegalStateException("reverting " + id + " to version " + version + ": " + e.getMessage(), e);
            }
        });
    }

    // ---- reads ----

    public Optional<Deployment> get(String id) {
        return Optional.ofNullable(byId.get(id)).map(Tracked::deployment);
    }

    /** Every deployment, newest first. */
    public List<Deployment> all() {
        return byId.values().stream().map(Tracked::deployment)
                .sorted(Comparator.comparingLong(Deployment::createIndex).reversed()).toList();
    }

    /** The job's deployments, newest first. */
    public List<Deployment> ofJob(String ns, String jobId) {
        return all().stream().filter(d -> d.namespace().equals(ns) && d.jobId().equals(jobId)).toList();
    }

    private Optional<Tracked> latest(String ns, String jobId) {
        return byId.values().stream().filter(t -> t.deployment().namespace().equals(ns) && t.deployment().jobId().equals(jobId))
                .max(Comparator.comparingLong(t -> t.deployment().createIndex()));
    }

    /** The allocation's health in deployment {@code deploymentId} (Nomad's {@code DeploymentStatus}), if it is known there. */
    public Optional<Deployment.AllocStatus> allocStatus(String deploymentId, String allocId) {
        return Optional.ofNullable(byId.get(deploymentId)).map(t -> t.allocs().get(allocId));
    }

    // ---- writes ----

    private long save(Tracked t) {
        return save(t, Map.of());
    }

    /** Stores the deployment with newly decided allocation health (each status takes the write's index). */
    private long save(Tracked t, Map<String, Deployment.AllocStatus> health) {
        try (var p = feed.begin()) {
            long index = p.index();
            Map<String, Deployment.AllocStatus> statuses = new LinkedHashMap<>(t.allocs());
            health.forEach((a, s) -> statuses.put(a, new Deployment.AllocStatus(s.healthy(), s.timestamp(), s.canary(), index)));
            Tracked stored = new Tracked(t.deployment().indexed(index, clock.millis() * 1_000_000L), statuses, t.joined());
            byId.put(stored.deployment().id(), stored);
            persist(stored);
            p.publish(Topic.Deployment, health.isEmpty() ? "DeploymentStatusUpdate" : "DeploymentAllocHealth",
                    stored.deployment().id(), stored.deployment().namespace(), stored.deployment());
            return index;
        }
    }

    private void persist(Tracked t) {
        store.putDeployment(new JobStore.Document(t.deployment().id(), t.deployment().namespace(), t.deployment().jobId(),
                json.writeValueAsString(t)));
    }

    private static boolean same(Deployment a, Deployment b) {
        return a.status().equals(b.status()) && a.statusDescription().equals(b.statusDescription())
                && a.taskGroups().equals(b.taskGroups());
    }

    /** Forgets a purged job's deployments. */
    public synchronized void forget(String ns, String jobId) {
        byId.values().removeIf(t -> t.deployment().namespace().equals(ns) && t.deployment().jobId().equals(jobId));
        store.deleteDeployments(ns, jobId);
    }

    Tracked tracked(String id) {
        return byId.get(id);
    }

    long saveTracked(Tracked t, Map<String, Deployment.AllocStatus> health) {
        return save(t, health);
    }

    Kick kicker() {
        return kick;
    }

    JobRegistry registry() {
        return registry;
    }
}
