package dev.berth.job;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.alloc.AllocManager;
import dev.berth.alloc.AllocView;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.events.ChangeFeed;

/**
 * Nomad's job scaling on this node. {@link #scale} is {@code Job.Scale}: a count registers a new version of the job with
 * the group's new count and an evaluation triggered by {@code job-scaling}, which the local scheduler places as it does
 * any registration; every request, with a count or without (an autoscaler's error report), is recorded as a scaling
 * event of its group. {@link #status} is {@code Job.ScaleStatus}. Events are held in memory, the 20 newest per group
 * (Nomad's {@code JobTrackedScalingEvents}), and are lost on an agent restart.
 */
public class JobScaling {

    static final int MAX_EVENTS = 20;

    private final JobRegistry registry;
    private final LocalScheduler scheduler;
    private final AllocManager allocs;
    private final ChangeFeed feed;
    private final Clock clock;
    private final JsonMapper json = JsonMapper.builder().build();
    /** Per job key: the events of each group, newest first, for the job created at {@code jobCreateIndex}. */
    private final Map<String, Tracked> events = new ConcurrentHashMap<>();

    private record Tracked(long jobCreateIndex, long index, Map<String, Deque<ObjectNode>> groups) {
    }

    public JobScaling(JobRegistry registry, LocalScheduler scheduler, AllocManager allocs, ChangeFeed feed, Clock clock) {
        this.registry = registry;
        this.scheduler = scheduler;
        this.allocs = allocs;
        this.feed = feed;
        this.clock = clock;
    }

    /**
     * Nomad's {@code ScalingRequest} against job {@code jobId}: {@code Target} {@code Group} (required), {@code Job} and
     * {@code Namespace} (optional, must match); {@code count} null records an event only.
     */
    public record Request(Long count, Map<String, String> target, String message, boolean error, JsonNode meta,
                          long jobModifyIndex) {
    }

    /** Nomad's {@code JobScaleStatus} and the index it answers for (the job's, its events' or its allocations'). */
    public record Status(ObjectNode body, long index) {
    }

    /** The job's scale status; empty for an unknown job. */
    public synchronized Optional<Status> status(String ns, String id) {
        Optional<ObjectNode> found = registry.job(ns, id);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        ObjectNode job = found.get();
        Optional<Tracked> tracked = tracked(job);
        ObjectNode s = json.createObjectNode();
        s.put("JobID", id);
        s.put("Namespace", ns);
        s.put("JobCreateIndex", job.path("CreateIndex").asLong());
        s.put("JobModifyIndex", job.path("ModifyIndex").asLong());
        s.put("JobStopped", job.path("Stop").asBoolean());
        ObjectNode groups = s.putObject("TaskGroups");
        for (JsonNode g : job.path("TaskGroups")) {
            String name = g.path("Name").asString();
            ObjectNode tg = groups.putObject(name);
            tg.put("Desired", g.path("Count").asInt()).put("Placed", 0).put("Running", 0).put("Healthy", 0).put("Unhealthy", 0);
            Deque<ObjectNode> list = tracked.map(t -> t.groups().get(name)).orElse(null);
            if (list == null) {
                tg.putNull("Events");
            } else {
                tg.putArray("Events").addAll(list);
            }
        }
        long index = Math.max(job.path("ModifyIndex").asLong(), tracked.map(Tracked::index).orElse(0L));
        for (Placement p : scheduler.placements(ns, id)) {
            Optional<AllocView> v = allocs.get(p.allocId());
            // Nomad counts the allocations that are not terminal; healthy and unhealthy come from deployments, which Berth does not run
            if (v.isEmpty() || v.get().record().spec().desiredTerminal() || ClientStatus.terminal(v.get().record().clientStatus())
                    || !(groups.get(p.group()) instanceof ObjectNode tg)) {
                continue;
            }
            tg.put("Placed", tg.path("Placed").asInt() + 1);
            if (ClientStatus.RUNNING.equals(v.get().record().clientStatus())) {
                tg.put("Running", tg.path("Running").asInt() + 1);
            }
            index = Math.max(index, v.get().modifyIndex());
        }
        return Optional.of(new Status(s, index));
    }

    /** Nomad's {@code Job.Scale}, with its checks and texts; answers its {@code JobRegisterResponse}. */
    public synchronized JobService.Result scale(String ns, String id, Request r) throws JobException {
        String group = r.target().getOrDefault("Group", "");
        if (!r.target().getOrDefault("Namespace", ns).equals(ns)) {
            throw invalid("namespace in payload did not match header");
        }
        if (!r.target().getOrDefault("Job", id).equals(id)) {
            throw invalid("job ID in payload did not match URL");
        }
        if (group.isEmpty()) {
            throw invalid("missing task group name for scaling action");
        }
        if (r.count() != null && r.count() < 0) {
            throw invalid("scaling action count can't be negative");
        }
        if (r.count() != null && r.error()) {
            throw invalid("scaling action should not contain count if error is true");
        }
        if (r.count() != null && r.count() > Integer.MAX_VALUE) {
            throw invalid("new scaling count is too large for TaskGroup.Count (int): " + r.count());
        }
        ObjectNode job = registry.job(ns, id)
                .orElseThrow(() -> new JobException(JobException.Kind.NOT_FOUND, "job \"" + id + "\" not found"));
        if ("system".equals(job.path("Type").asString()) && r.count() != null && r.count() > 1) {
            throw invalid("jobs of type \"system\" can only be scaled to 1 or 0");
        }
        ObjectNode scaled = job.deepCopy();
        ObjectNode tg = null;
        for (JsonNode g : scaled.path("TaskGroups")) {
            if (group.equals(g.path("Name").asString()) && g instanceof ObjectNode o) {
                tg = o;
            }
        }
        if (tg == null) {
            throw invalid("task group \"" + group + "\" specified for scaling does not exist in job");
        }
        long previous = tg.path("Count").asLong();
        String evalId = "";
        long evalIndex = 0;
        long jobModifyIndex = job.path("ModifyIndex").asLong();
        if (r.count() != null) {
            checkPolicy(tg.path("Scaling"), r.count());
            if (r.jobModifyIndex() > 0 && r.jobModifyIndex() != job.path("JobModifyIndex").asLong()) {
                throw new JobException(JobException.Kind.STALE_INDEX, "Enforcing job modify index " + r.jobModifyIndex()
                        + ": job exists with conflicting job modify index: " + job.path("JobModifyIndex").asLong());
            }
            tg.put("Count", r.count().intValue());
            JobRegistry.Registered reg = registry.register(scaled, null);
            jobModifyIndex = reg.job().path("JobModifyIndex").asLong();
            if (!reg.job().hasNonNull("Periodic") && !reg.job().hasNonNull("ParameterizedJob")) {
                ObjectNode eval = registry.createEval(reg.job(), "job-scaling");
                evalId = eval.path("ID").asString();
                evalIndex = eval.path("CreateIndex").asLong();
                scheduler.kick(ns, id, evalId);
            }
        }
        long index = record(job, group, previous, r, evalId);
        return new JobService.Result(evalId, evalIndex, jobModifyIndex, "", index);
    }

    private static void checkPolicy(JsonNode scaling, long count) throws JobException {
        if (!scaling.isObject()) {
            return;
        }
        long min = scaling.path("Min").asLong(0);
        long max = scaling.path("Max").asLong(Long.MAX_VALUE);
        if (count < min) {
            throw invalid("group count was less than scaling policy minimum: " + count + " < " + min);
        }
        if (max < count) {
            throw invalid("group count was greater than scaling policy maximum: " + count + " > " + max);
        }
    }

    /** Records Nomad's {@code ScalingEvent} under the next node index and returns that index. */
    private long record(ObjectNode job, String group, long previous, Request r, String evalId) {
        try (var pending = feed.begin()) {
            long index = pending.index();
            ObjectNode e = json.createObjectNode();
            e.put("Time", clock.instant().toEpochMilli() * 1_000_000L);
            if (r.count() == null) {
                e.putNull("Count");
            } else {
                e.put("Count", r.count());
            }
            e.put("PreviousCount", previous);
            e.put("Message", r.message() == null ? "" : r.message());
            e.put("Error", r.error());
            e.set("Meta", r.meta() == null || r.meta().isMissingNode() ? json.nullNode() : r.meta());
            if (evalId.isEmpty()) {
                e.putNull("EvalID");
            } else {
                e.put("EvalID", evalId);
            }
            e.put("CreateIndex", index);
            String key = JobRegistry.key(JobService.ns(job), JobService.id(job));
            long created = job.path("CreateIndex").asLong();
            Tracked t = tracked(job).orElseGet(() -> new Tracked(created, index, new ConcurrentHashMap<>()));
            Deque<ObjectNode> list = t.groups().computeIfAbsent(group, g -> new ArrayDeque<>());
            list.addFirst(e);
            while (list.size() > MAX_EVENTS) {
                list.removeLast();
            }
            events.put(key, new Tracked(created, index, t.groups()));
            return index;
        }
    }

    /** The events of this job (not of an earlier job of the same ID that was purged). */
    private Optional<Tracked> tracked(ObjectNode job) {
        return Optional.ofNullable(events.get(JobRegistry.key(JobService.ns(job), JobService.id(job))))
                .filter(t -> t.jobCreateIndex() == job.path("CreateIndex").asLong());
    }

    private static JobException invalid(String message) {
        return new JobException(JobException.Kind.INVALID, message);
    }
}
