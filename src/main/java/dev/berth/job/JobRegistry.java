package dev.berth.job;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.events.ChangeFeed;
import dev.berth.events.Topic;

/**
 * The node's jobs, their versions and evaluations: held in memory, written through to the {@link JobStore}, indexed by the
 * node's {@link ChangeFeed} (every write takes the next index and publishes a Job or Evaluation change). Thread-safe: writes
 * are serialized on this object.
 */
public class JobRegistry {

    /** How many versions of a job are kept (Nomad's {@code job_max_versions}… default is 6). */
    static final int MAX_VERSIONS = 6;

    private final JobStore store;
    private final ChangeFeed feed;
    private final Clock clock;
    private final JsonMapper json = JsonMapper.builder().build();
    private final Map<String, List<ObjectNode>> versions = new ConcurrentHashMap<>();
    private final Map<String, ObjectNode> evals = new ConcurrentHashMap<>();
    /** Told after every registration (the job loops sleep while there is no job). */
    private final List<Runnable> registrationListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    public JobRegistry(JobStore store, ChangeFeed feed, Clock clock) {
        this.store = store;
        this.feed = feed;
        this.clock = clock;
        for (JobStore.JobDocument d : store.jobVersions()) {
            versions.computeIfAbsent(key(d.namespace(), d.jobId()), k -> new ArrayList<>())
                    .add(JobDefaults.admit((ObjectNode) json.readTree(d.json())));
        }
        versions.values().forEach(l -> l.sort(Comparator.comparingLong((ObjectNode j) -> j.path("Version").asLong()).reversed()));
        for (JobStore.Document d : store.evaluations()) {
            evals.put(d.id(), (ObjectNode) json.readTree(d.json()));
        }
    }

    /** The registry clock's time in Unix seconds (the stamp of a dispatched job's ID). */
    long clockSeconds() {
        return clock.instant().getEpochSecond();
    }

    static String key(String namespace, String id) {
        return namespace + "\u0000" + id;
    }

    /** The outcome of a registration. */
    public record Registered(ObjectNode job, long index, boolean changed) {
    }

    /**
     * Registers a canonical job: a new version when its spec differs from the current one (Nomad bumps {@code Version} only
     * then), else only the modify indexes move. {@code enforceIndex} (not null) must equal the current
     * {@code JobModifyIndex} (0: the job must not exist).
     */
    public synchronized Registered register(ObjectNode submitted, Long enforceIndex) throws JobException {
        ObjectNode job = JobDefaults.admit(submitted.deepCopy());
        String ns = job.path("Namespace").asString();
        String id = job.path("ID").asString();
        Optional<ObjectNode> current = job(ns, id);
        if (enforceIndex != null) {
            long have = current.map(j -> j.path("JobModifyIndex").asLong()).orElse(0L);
            if (have != enforceIndex) {
                throw new JobException(JobException.Kind.STALE_INDEX, current.isEmpty() && enforceIndex != 0
                        ? "Enforcing job modify index " + enforceIndex + ": job does not exist"
                        : "Enforcing job modify index " + enforceIndex + ": job exists with conflicting job modify index: " + have);
            }
        }
        try (var p = feed.begin()) {
            long index = p.index();
            long now = clock.instant().toEpochMilli() * 1_000_000L;
            boolean changed = current.isEmpty() || !specOf(current.get()).equals(specOf(job));
            ObjectNode next = job.deepCopy();
            next.put("Version", current.map(c -> c.path("Version").asLong() + (changed ? 1 : 0)).orElse(0L));
            next.put("CreateIndex", current.map(c -> c.path("CreateIndex").asLong()).orElse(index));
            next.put("ModifyIndex", index);
            next.put("JobModifyIndex", changed ? index : current.get().path("JobModifyIndex").asLong());
            next.put("SubmitTime", now);
            next.put("Status", next.path("Stop").asBoolean() ? "dead" : "pending");
            next.put("Stable", false);
            store.putJobVersion(new JobStore.JobDocument(ns, id, next.path("Version").asLong(), json.writeValueAsString(next)));
            store.trimVersions(ns, id, MAX_VERSIONS);
            List<ObjectNode> list = versions.computeIfAbsent(key(ns, id), k -> new ArrayList<>());
            if (!changed) {
                list.removeIf(v -> v.path("Version").asLong() == next.path("Version").asLong());
            }
            list.addFirst(next);
            while (list.size() > MAX_VERSIONS) {
                list.removeLast();
            }
            p.publish(Topic.Job, "JobRegistered", id, ns, Map.of("Job", next));
            registrationListeners.forEach(Runnable::run);
            return new Registered(next, index, changed);
        }
    }

    /** The fields that make a version: the job without indexes, status, submit time and version. */
    static ObjectNode specOf(ObjectNode job) {
        ObjectNode s = job.deepCopy();
        for (String f : List.of("Version", "CreateIndex", "ModifyIndex", "JobModifyIndex", "SubmitTime", "Status",
                "StatusDescription", "Stable")) {
            s.remove(f);
        }
        return s;
    }

    /** Sets the job's status (pending, running, dead) without a new version; no-op when unchanged. */
    public synchronized void setStatus(String ns, String id, String status) {
        job(ns, id).filter(j -> !status.equals(j.path("Status").asString())).ifPresent(j -> {
            try (var p = feed.begin()) {
                j.put("Status", status);
                j.put("ModifyIndex", p.index());
                store.putJobVersion(new JobStore.JobDocument(ns, id, j.path("Version").asLong(), json.writeValueAsString(j)));
                p.publish(Topic.Job, "JobRegistered", id, ns, Map.of("Job", j));
            }
        });
    }

    /**
     * Marks one kept version of the job stable or not (a successful deployment, or {@code PUT /v1/job/:id/stable}); that
     * version's {@code ModifyIndex} moves. Returns the write's index, 0 when the version is not kept.
     */
    public synchronized long setStable(String ns, String id, long version, boolean stable) {
        Optional<ObjectNode> v = versions(ns, id).stream().filter(j -> j.path("Version").asLong() == version).findFirst();
        if (v.isEmpty()) {
            return 0;
        }
        try (var p = feed.begin()) {
            ObjectNode j = v.get();
            j.put("Stable", stable);
            j.put("ModifyIndex", p.index());
            store.putJobVersion(new JobStore.JobDocument(ns, id, version, json.writeValueAsString(j)));
            p.publish(Topic.Job, "JobRegistered", id, ns, Map.of("Job", j));
            return p.index();
        }
    }

    /** Removes the job, its versions and evaluations ({@code purge}). */
    public synchronized long purge(String ns, String id) {
        try (var p = feed.begin()) {
            store.purgeJob(ns, id);
            versions.remove(key(ns, id));
            evals.values().removeIf(e -> ns.equals(e.path("Namespace").asString()) && id.equals(e.path("JobID").asString()));
            p.publish(Topic.Job, "JobDeregistered", id, ns, Map.of("JobID", id));
            return p.index();
        }
    }

    public Optional<ObjectNode> job(String ns, String id) {
        List<ObjectNode> list = versions.get(key(ns, id));
        return list == null || list.isEmpty() ? Optional.empty() : Optional.of(list.getFirst());
    }

    /** The job's versions, newest first. */
    public List<ObjectNode> versions(String ns, String id) {
        return List.copyOf(versions.getOrDefault(key(ns, id), List.of()));
    }

    /** Runs {@code listener} after every registration (on the registering thread; it must not block). */
    public void onRegistration(Runnable listener) {
        registrationListeners.add(listener);
    }

    /** Whether the current version of some job passes {@code test}; no copy, no sort. */
    public boolean anyJob(java.util.function.Predicate<ObjectNode> test) {
        for (List<ObjectNode> list : versions.values()) {
            if (!list.isEmpty() && test.test(list.getFirst())) {
                return true;
            }
        }
        return false;
    }

    /** The current version of every job. */
    public List<ObjectNode> jobs() {
        return versions.values().stream().filter(l -> !l.isEmpty()).map(List::getFirst)
                .sorted(Comparator.comparing((ObjectNode j) -> j.path("ID").asString())).toList();
    }

    // ---- evaluations ----

    /** Creates an evaluation for the job (status pending) and returns it. */
    public synchronized ObjectNode createEval(ObjectNode job, String triggeredBy) {
        try (var p = feed.begin()) {
            long now = clock.instant().toEpochMilli() * 1_000_000L;
            ObjectNode e = json.createObjectNode();
            e.put("ID", UUID.randomUUID().toString());
            e.put("Namespace", job.path("Namespace").asString());
            e.put("Priority", job.path("Priority").asInt(50));
            e.put("Type", job.path("Type").asString());
            e.put("TriggeredBy", triggeredBy);
            e.put("JobID", job.path("ID").asString());
            e.put("JobModifyIndex", job.path("JobModifyIndex").asLong());
            e.put("Status", "pending");
            e.put("StatusDescription", "");
            e.putNull("FailedTGAllocs");
            e.putNull("QueuedAllocations");
            e.put("BlockedEval", "");
            e.put("CreateIndex", p.index());
            e.put("ModifyIndex", p.index());
            e.put("CreateTime", now);
            e.put("ModifyTime", now);
            persistEval(e);
            p.publish(Topic.Evaluation, "EvaluationUpdated", e.path("ID").asString(), e.path("Namespace").asString(), Map.of("Evaluation", e));
            return e;
        }
    }

    /** Sets an evaluation's outcome: status, description and the groups that could not be placed. */
    public synchronized void finishEval(String evalId, String status, String description, JsonNode failedTgAllocs) {
        ObjectNode e = evals.get(evalId);
        if (e == null) {
            return;
        }
        if (status.equals(e.path("Status").asString()) && description.equals(e.path("StatusDescription").asString())
                && e.path("FailedTGAllocs").equals(failedTgAllocs == null ? json.nullNode() : failedTgAllocs)) {
            return;
        }
        try (var p = feed.begin()) {
            e.put("Status", status);
            e.put("StatusDescription", description);
            e.set("FailedTGAllocs", failedTgAllocs);
            e.put("ModifyIndex", p.index());
            e.put("ModifyTime", clock.instant().toEpochMilli() * 1_000_000L);
            persistEval(e);
            p.publish(Topic.Evaluation, "EvaluationUpdated", evalId, e.path("Namespace").asString(), Map.of("Evaluation", e));
        }
    }

    private void persistEval(ObjectNode e) {
        evals.put(e.path("ID").asString(), e);
        store.putEvaluation(new JobStore.Document(e.path("ID").asString(), e.path("Namespace").asString(), e.path("JobID").asString(),
                json.writeValueAsString(e)));
    }

    public Optional<ObjectNode> eval(String id) {
        return Optional.ofNullable(evals.get(id));
    }

    /** Every evaluation, newest first. */
    public List<ObjectNode> evals() {
        return evals.values().stream().sorted(Comparator.comparingLong((ObjectNode e) -> e.path("CreateIndex").asLong()).reversed()).toList();
    }

    /** The job's evaluations, newest first. */
    public List<ObjectNode> evals(String ns, String jobId) {
        return evals().stream().filter(e -> ns.equals(e.path("Namespace").asString()) && jobId.equals(e.path("JobID").asString())).toList();
    }
}
