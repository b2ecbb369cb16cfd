package dev.berth.job;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.alloc.AllocManager;
import dev.berth.alloc.AllocView;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.namespace.NamespaceService;

/**
 * The node-local job API behind the controllers: register, stop, purge, plan, summaries, allocations and evaluations of a
 * job. Registration validates, canonicalizes, stores a version, creates an evaluation and kicks the {@link LocalScheduler}.
 */
public class JobService {

    private final JobRegistry registry;
    private final LocalScheduler scheduler;
    private final AllocManager allocs;
    private final NamespaceService namespaces;
    private final JsonMapper json = JsonMapper.builder().build();
    private java.util.function.Function<JsonNode, Optional<java.time.Instant>> nextLaunch;

    /** Where a plan learns a periodic job's next launch ({@link PeriodicLauncher#nextLaunch}). */
    void nextLaunch(java.util.function.Function<JsonNode, Optional<java.time.Instant>> f) {
        this.nextLaunch = f;
    }

    public JobService(JobRegistry registry, LocalScheduler scheduler, AllocManager allocs, NamespaceService namespaces) {
        this.registry = registry;
        this.scheduler = scheduler;
        this.allocs = allocs;
        this.namespaces = namespaces;
    }

    /** The answer to a register or deregister: Nomad's {@code JobRegisterResponse} fields. */
    public record Result(String evalId, long evalCreateIndex, long jobModifyIndex, String warnings, long index) {
    }

    /** Registers (or updates) a job given as Nomad's job JSON. */
    public Result register(JsonNode jobJson, Long enforceIndex) throws JobException {
        if (!(jobJson instanceof ObjectNode raw)) {
            throw new JobException(JobException.Kind.INVALID, "Job must be specified");
        }
        ObjectNode job = JobDefaults.canonicalize(raw.deepCopy());
        JobValidation.validate(job);
        JobValidation.validateForPlacement(job);
        checkNamespace(job);
        JobRegistry.Registered reg = registry.register(job, enforceIndex);
        ObjectNode eval = registry.createEval(reg.job(), "job-register");
        scheduler.kick(ns(reg.job()), id(reg.job()), eval.path("ID").asString());
        return new Result(eval.path("ID").asString(), eval.path("CreateIndex").asLong(), reg.job().path("JobModifyIndex").asLong(),
                "", eval.path("CreateIndex").asLong());
    }

    /**
     * Registers a child derived from a periodic or parameterized job (already canonical) and evaluates it unless it is
     * itself an active periodic job (Nomad creates no evaluation then).
     */
    public Result registerChild(ObjectNode child, String triggeredBy) throws JobException {
        JobRegistry.Registered reg = registry.register(child, null);
        if (PeriodicLauncher.active(reg.job())) {
            return new Result("", 0, reg.job().path("JobModifyIndex").asLong(), "", reg.index());
        }
        ObjectNode eval = registry.createEval(reg.job(), triggeredBy);
        scheduler.kick(ns(reg.job()), id(reg.job()), eval.path("ID").asString());
        return new Result(eval.path("ID").asString(), eval.path("CreateIndex").asLong(), reg.job().path("JobModifyIndex").asLong(),
                "", eval.path("CreateIndex").asLong());
    }

    /** Nomad's {@code JobDispatchResponse}. */
    public record Dispatched(String dispatchedJobId, String evalId, long evalCreateIndex, long jobCreateIndex, long index) {
    }

    /**
     * Nomad's {@code Job.Dispatch}: checks the payload and meta against the job's {@code parameterized} block (Nomad's
     * error texts), derives {@code <id>/dispatch-<unix seconds>-<8 hex>} with {@code ParentID}, {@code Dispatched}, the
     * merged meta and the payload, and registers it.
     */
    public Dispatched dispatch(String ns, String id, byte[] payload, Map<String, String> meta) throws JobException {
        ObjectNode parent = registry.job(ns, id).orElseThrow(() -> new JobException(JobException.Kind.NOT_FOUND, "parameterized job not found"));
        if (!parent.hasNonNull("ParameterizedJob") || parent.path("Dispatched").asBoolean()) {
            throw new JobException(JobException.Kind.INVALID, "Specified job \"" + id + "\" is not a parameterized job");
        }
        if (parent.path("Stop").asBoolean()) {
            throw new JobException(JobException.Kind.INVALID, "Specified job \"" + id + "\" is stopped");
        }
        Dispatch.validate(parent.path("ParameterizedJob"), payload, meta);
        ObjectNode child = Dispatch.derive(parent, payload, meta, registry.clockSeconds());
        Result r = registerChild(child, "job-register");
        ObjectNode stored = registry.job(ns, id(child)).orElseThrow();
        return new Dispatched(id(child), r.evalId(), r.evalCreateIndex(), stored.path("CreateIndex").asLong(),
                stored.path("CreateIndex").asLong());
    }

    /** Stops the job ({@code purge}: and forgets it once its allocations are stopped). */
    public Result deregister(String ns, String id, boolean purge) throws JobException {
        ObjectNode job = registry.job(ns, id).orElseThrow(() -> new JobException(JobException.Kind.NOT_FOUND, "job not found"));
        ObjectNode stopped = job.deepCopy();
        stopped.put("Stop", true);
        JobRegistry.Registered reg = job.path("Stop").asBoolean() ? new JobRegistry.Registered(job, 0, false)
                : registry.register(stopped, null);
        ObjectNode eval = registry.createEval(reg.job(), "job-deregister");
        scheduler.kick(ns, id, eval.path("ID").asString());
        if (purge) {
            scheduler.reconcileAll();
            registry.purge(ns, id);
            scheduler.forget(ns, id);
        }
        return new Result(eval.path("ID").asString(), eval.path("CreateIndex").asLong(), reg.job().path("JobModifyIndex").asLong(),
                "", eval.path("CreateIndex").asLong());
    }

    /**
     * Nomad's {@code Job.Evaluate}: a new evaluation of the job as it is ({@code job-register}), which the local
     * scheduler's next pass finishes; the job's own modify index is answered as {@code JobModifyIndex}.
     */
    public Result evaluate(String ns, String id) throws JobException {
        ObjectNode job = registry.job(ns, id).orElseThrow(() -> new JobException(JobException.Kind.NOT_FOUND, "job not found"));
        if (job.hasNonNull("Periodic")) {
            throw new JobException(JobException.Kind.INVALID, "can't evaluate periodic job");
        }
        if (job.hasNonNull("ParameterizedJob") && !job.path("Dispatched").asBoolean()) {
            throw new JobException(JobException.Kind.INVALID, "can't evaluate parameterized job");
        }
        ObjectNode eval = registry.createEval(job, "job-register");
        scheduler.kick(ns, id, eval.path("ID").asString());
        return new Result(eval.path("ID").asString(), eval.path("CreateIndex").asLong(), job.path("ModifyIndex").asLong(), "",
                eval.path("CreateIndex").asLong());
    }

    public Optional<ObjectNode> job(String ns, String id) {
        return registry.job(ns, id);
    }

    public List<ObjectNode> jobs() {
        return registry.jobs();
    }

    public List<ObjectNode> versions(String ns, String id) {
        return registry.versions(ns, id);
    }

    public List<ObjectNode> evaluations(String ns, String id) {
        return registry.evals(ns, id);
    }

    public List<ObjectNode> evaluations() {
        return registry.evals();
    }

    public Optional<ObjectNode> evaluation(String id) {
        return registry.eval(id);
    }

    /** The allocations placed for the job that still exist on this node, oldest first. */
    public List<AllocView> allocations(String ns, String id) {
        List<AllocView> out = new ArrayList<>();
        for (Placement p : scheduler.placements(ns, id)) {
            allocs.get(p.allocId()).ifPresent(out::add);
        }
        return out;
    }

    /** The evaluation that placed the allocation (or last updated it in place), if the local scheduler placed it. */
    public Optional<String> evalOf(String allocId) {
        return scheduler.evalOf(allocId);
    }

    /** The deployment the allocation was placed (or last updated in place) by, if any. */
    public Optional<String> deploymentOf(String allocId) {
        return scheduler.placement(allocId).map(Placement::deploymentId);
    }

    /** The allocations that joined deployment {@code deploymentId} and still exist on this node, oldest first. */
    public List<AllocView> deploymentAllocations(String deploymentId) {
        return scheduler.all().stream().filter(p -> deploymentId.equals(p.deploymentId()))
                .sorted(java.util.Comparator.comparingLong(Placement::createIndex))
                .flatMap(p -> allocs.get(p.allocId()).stream()).toList();
    }

    /** The allocation the local scheduler placed to replace {@code allocId} (Nomad's {@code NextAllocation}), if any. */
    public Optional<String> replacementOf(String allocId) {
        return scheduler.replacementOf(allocId);
    }

    /**
     * The index a job listing or summary answers for: the job's own {@code ModifyIndex} or the latest change of one of its
     * allocations, whichever is higher (the summary counts allocation statuses, so it moves with them).
     */
    public long summaryIndex(JsonNode job) {
        long index = job.path("ModifyIndex").asLong();
        for (AllocView v : allocations(ns(job), id(job))) {
            index = Math.max(index, v.modifyIndex());
        }
        return index;
    }

    /** Which job version each of the job's allocations was placed from (allocation ID → version). */
    public Map<String, Long> allocationVersions(String ns, String id) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (Placement p : scheduler.placements(ns, id)) {
            out.put(p.allocId(), p.jobVersion());
        }
        return out;
    }

    /** Nomad's {@code JobSummary}: per group Queued/Starting/Running/Failed/Complete/Lost/Unknown. */
    public ObjectNode summary(ObjectNode job) {
        ObjectNode s = json.createObjectNode();
        s.put("JobID", id(job));
        s.put("Namespace", ns(job));
        ObjectNode groups = s.putObject("Summary");
        job.path("TaskGroups").forEach(g -> groups.set(g.path("Name").asString(), json.valueToTree(counts())));
        for (Placement p : scheduler.placements(ns(job), id(job))) {
            if (!(groups.get(p.group()) instanceof ObjectNode c)) {
                continue;
            }
            String status = JobPlan.status(p, allocs::get);
            String field = switch (status) {
                case ClientStatus.RUNNING -> "Running";
                case ClientStatus.COMPLETE -> "Complete";
                case ClientStatus.FAILED -> "Failed";
                case ClientStatus.LOST -> "Lost";
                default -> "Starting";
            };
            c.put(field, c.path(field).asInt() + 1);
        }
        ObjectNode children = s.putObject("Children");
        children.put("Pending", 0).put("Running", 0).put("Dead", 0);
        for (ObjectNode child : registry.jobs()) {
            if (id(job).equals(child.path("ParentID").asString()) && ns(job).equals(ns(child))) {
                String st = child.path("Status").asString();
                String f = "running".equals(st) ? "Running" : "dead".equals(st) ? "Dead" : "Pending";
                children.put(f, children.path(f).asInt() + 1);
            }
        }
        s.put("CreateIndex", job.path("CreateIndex").asLong());
        s.put("ModifyIndex", summaryIndex(job));
        return s;
    }

    private static Map<String, Integer> counts() {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (String k : List.of("Queued", "Complete", "Failed", "Running", "Starting", "Lost", "Unknown")) {
            m.put(k, 0);
        }
        return m;
    }

    /** Nomad's {@code JobPlanResponse}: would it fit, what would change; nothing is stored. */
    public ObjectNode plan(JsonNode jobJson) throws JobException {
        if (!(jobJson instanceof ObjectNode raw)) {
            throw new JobException(JobException.Kind.INVALID, "Job must be specified");
        }
        ObjectNode job = JobDefaults.admit(JobDefaults.canonicalize(raw.deepCopy()));
        JobValidation.validate(job);
        JobValidation.validateForPlacement(job);
        checkNamespace(job);
        Optional<ObjectNode> current = registry.job(ns(job), id(job));
        boolean changed = current.isEmpty() || !JobRegistry.specOf(current.get()).equals(JobRegistry.specOf(job));
        job.put("Version", current.map(c -> c.path("Version").asLong() + (changed ? 1 : 0)).orElse(0L));
        JobPlan plan = scheduler.plan(job);
        ObjectNode r = json.createObjectNode();
        r.putObject("Annotations").set("DesiredTGUpdates", json.valueToTree(plan.desired()));
        ObjectNode failed = json.createObjectNode();
        for (JobPlan.Place p : plan.places()) {
            if (p.infeasible() != null) {
                failed.putObject(p.group()).put("NodesEvaluated", 1).put("NodesFiltered", 1)
                        .putObject("ConstraintFiltered").put(p.infeasible(), 1);
            }
        }
        r.set("FailedTGAllocs", failed.isEmpty() ? json.nullNode() : failed);
        r.put("JobModifyIndex", current.map(c -> c.path("JobModifyIndex").asLong()).orElse(0L));
        r.putNull("CreatedEvals");
        ObjectNode diff = r.putObject("Diff");
        diff.put("Type", current.isEmpty() ? "Added" : changed ? "Edited" : "None");
        diff.put("ID", id(job));
        diff.putNull("Fields");
        diff.putNull("Objects");
        diff.putNull("TaskGroups");
        r.put("NextPeriodicLaunch", nextLaunch == null ? "0001-01-01T00:00:00Z"
                : nextLaunch.apply(job).map(java.time.Instant::toString).orElse("0001-01-01T00:00:00Z"));
        r.put("Warnings", "");
        r.put("Index", current.map(c -> c.path("JobModifyIndex").asLong()).orElse(0L));
        return r;
    }

    /**
     * Nomad's namespace admission check: a job lives only in a namespace that exists, and uses only the task drivers and
     * group network modes its capabilities allow.
     */
    private void checkNamespace(JsonNode job) throws JobException {
        List<String> drivers = new ArrayList<>();
        List<String> modes = new ArrayList<>();
        for (JsonNode g : job.path("TaskGroups")) {
            g.path("Tasks").forEach(t -> drivers.add(t.path("Driver").asString("")));
            g.path("Networks").forEach(n -> modes.add(n.path("Mode").asString("").isEmpty() ? "host" : n.path("Mode").asString()));
        }
        Optional<String> refusal = namespaces.refusal(ns(job), id(job), drivers, modes);
        if (refusal.isPresent()) {
            throw new JobException(JobException.Kind.INVALID, "1 error occurred:\n\t* " + refusal.get() + "\n\n");
        }
    }

    static String ns(JsonNode job) {
        return job.path("Namespace").asString("default");
    }

    static String id(JsonNode job) {
        return job.path("ID").asString();
    }

    public JobRegistry registry() {
        return registry;
    }

    public LocalScheduler scheduler() {
        return scheduler;
    }
}
