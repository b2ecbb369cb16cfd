package dev.berth.job;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One step of a job's deployment, computed and not yet carried out (Nomad's deployment watcher and the deployment half
 * of its reconciler, on one node): whether a new job version starts a deployment (cancelling the one before), which
 * allocations just turned healthy or unhealthy, whether the deployment fails (unhealthy allocation, progress deadline)
 * and to which stable version it reverts, whether canaries are promoted automatically, whether it succeeded (the job
 * version becomes stable), and what each group's rollout lets the reconcile pass do now ({@link JobPlan.Rollout}).
 *
 * @param deployment the job's deployment after this step (null: the job has none)
 * @param cancelled  the deployment this step cancelled (a newer version or a stopped job), else null
 * @param health     allocations whose health this step decided
 * @param revertTo   the stable job version to register again (auto-revert), else null
 * @param markStable the deployment succeeded: its job version is stable
 * @param rollouts   per group, what the reconcile pass may do (absent: the group rolls out without a deployment)
 */
record DeploymentPlan(Deployment deployment, Deployment cancelled, Map<String, Deployment.AllocStatus> health, Long revertTo,
                      boolean markStable, Map<String, JobPlan.Rollout> rollouts) {

    /**
     * What the step is computed from.
     *
     * @param versions  the job's kept versions, newest first (for the stable version to revert to)
     * @param latest    the job's newest deployment, else null
     * @param statuses  the health of the latest deployment's allocations decided so far
     * @param placements every placement of the job, replaced ones included
     * @param verdicts  the health tracker's verdict for the latest deployment's undecided live allocations
     * @param newId     the ID a deployment created by this step gets
     */
    record Input(ObjectNode job, List<ObjectNode> versions, Deployment latest, Map<String, Deployment.AllocStatus> statuses,
                 List<Placement> placements, Map<String, AllocHealth.Verdict> verdicts, Instant now, String newId) {
    }

    static DeploymentPlan compute(Input in) {
        ObjectNode job = in.job();
        Map<String, UpdateStrategy> strategies = strategies(job);
        Deployment d = in.latest();
        Deployment cancelled = null;
        if (strategies.isEmpty()) {
            if (d != null && d.active()) {
                cancelled = d.withStatus(Deployment.CANCELLED, job.path("Stop").asBoolean()
                        ? Deployment.DESC_STOPPED_JOB : Deployment.DESC_NEWER_JOB);
                d = cancelled;
            }
            return new DeploymentPlan(d, cancelled, Map.of(), null, false, Map.of());
        }
        Map<String, Deployment.AllocStatus> statuses = new LinkedHashMap<>(in.statuses());
        if (d == null || d.jobVersion() != job.path("Version").asLong() || d.jobCreateIndex() != job.path("CreateIndex").asLong()) {
            if (d != null && d.active()) {
                cancelled = d.withStatus(Deployment.CANCELLED, Deployment.DESC_NEWER_JOB);
            }
            d = create(job, strategies, in.placements(), in.now(), in.newId());
            statuses.clear();
        }
        Map<String, Deployment.AllocStatus> health = new LinkedHashMap<>();
        String id = d.id();
        List<Placement> members = in.placements().stream().filter(p -> id.equals(p.deploymentId())).toList();
        for (Placement p : members) {
            Deployment.AllocStatus known = statuses.get(p.allocId());
            if (d.active() && (known == null || known.healthy() == null)) {
                AllocHealth.Verdict v = in.verdicts().get(p.allocId());
                if (v instanceof AllocHealth.Verdict.Healthy || v instanceof AllocHealth.Verdict.Unhealthy) {
                    Deployment.AllocStatus s = new Deployment.AllocStatus(v instanceof AllocHealth.Verdict.Healthy, in.now(),
                            p.canary(), 0);
                    health.put(p.allocId(), s);
                    statuses.put(p.allocId(), s);
                }
            }
        }
        d = d.withGroups(recount(d, members, statuses, health.keySet(), in.now()));
        Long revertTo = null;
        boolean stable = false;
        if (d.active()) {
            boolean unhealthy = members.stream().anyMatch(p -> statuses.containsKey(p.allocId())
                    && Boolean.FALSE.equals(statuses.get(p.allocId()).healthy()));
            boolean late = Deployment.RUNNING.equals(d.status()) && d.taskGroups().values().stream()
                    .anyMatch(g -> g.progressDeadline() > 0 && !complete(g) && in.now().isAfter(g.requireProgressBy()));
            if (unhealthy || late) {
                String desc = unhealthy ? Deployment.DESC_FAILED_ALLOCS : Deployment.DESC_PROGRESS_DEADLINE;
                if (d.taskGroups().values().stream().anyMatch(Deployment.GroupState::autoRevert)) {
                    Optional<ObjectNode> target = latestStable(job, in.versions());
                    if (target.isEmpty()) {
                        desc += " - no stable job version to auto revert to";
                    } else if (JobRegistry.specOf(target.get()).equals(JobRegistry.specOf(job))) {
                        desc += " - not rolling back to stable job version " + target.get().path("Version").asLong()
                                + " as current job has same specification";
                    } else {
                        revertTo = target.get().path("Version").asLong();
                        desc += " - rolling back to job version " + revertTo;
                    }
                }
                d = d.withStatus(Deployment.FAILED, desc);
            } else if (Deployment.RUNNING.equals(d.status())) {
                if (autoPromotable(d, members, statuses)) {
                    Map<String, Deployment.GroupState> promoted = new LinkedHashMap<>();
                    Instant now = in.now();
                    d.taskGroups().forEach((name, g) -> promoted.put(name, g.desiredCanaries() > 0 ? g.promote(now) : g));
                    d = d.withGroups(promoted);
                }
                if (d.taskGroups().values().stream().allMatch(DeploymentPlan::complete)) {
                    d = d.withStatus(Deployment.SUCCESSFUL, Deployment.DESC_SUCCESSFUL);
                    stable = true;
                } else {
                    d = d.withStatus(Deployment.RUNNING, d.runningDescription());
                }
            }
        }
        return new DeploymentPlan(d, cancelled, health, revertTo, stable, rollouts(d, strategies, members, statuses));
    }

    /** The groups that roll out through a deployment (those with an {@code update} block and {@code max_parallel > 0}). */
    static Map<String, UpdateStrategy> strategies(ObjectNode job) {
        Map<String, UpdateStrategy> out = new LinkedHashMap<>();
        if (!"service".equals(job.path("Type").asString("service")) || job.path("Stop").asBoolean(false)
                || job.hasNonNull("Periodic") || job.hasNonNull("ParameterizedJob")) {
            return out;
        }
        for (JsonNode g : job.path("TaskGroups")) {
            UpdateStrategy s = UpdateStrategy.of(g);
            if (s != null) {
                out.put(g.path("Name").asString(), s);
            }
        }
        return out;
    }

    private static Deployment create(ObjectNode job, Map<String, UpdateStrategy> strategies, List<Placement> placements,
                                     Instant now, String id) {
        Map<String, Deployment.GroupState> groups = new LinkedHashMap<>();
        for (JsonNode g : job.path("TaskGroups")) {
            String name = g.path("Name").asString();
            UpdateStrategy s = strategies.get(name);
            if (s == null) {
                continue;
            }
            String hash = GroupHash.of(g);
            boolean destructive = placements.stream().anyMatch(p -> !p.replaced() && !p.canary() && p.group().equals(name)
                    && !hash.equals(p.groupHash()));
            int canaries = destructive ? s.canary() : 0;
            Instant by = s.progressDeadline().isPositive() ? now.plus(s.progressDeadline()) : Deployment.ZERO_TIME;
            groups.put(name, new Deployment.GroupState(s.autoRevert(), s.autoPromote(), s.progressDeadline().toNanos(), by, false,
                    List.of(), canaries, g.path("Count").asInt(1), 0, 0, 0));
        }
        return new Deployment(id, job.path("Namespace").asString("default"), job.path("ID").asString(), job.path("Version").asLong(),
                job.path("ModifyIndex").asLong(), job.path("JobModifyIndex").asLong(), job.path("CreateIndex").asLong(), false,
                groups, Deployment.RUNNING, Deployment.DESC_RUNNING, job.path("Priority").asInt(50), 0, 0, 0, 0);
    }

    /** Counts each group's placed, healthy and unhealthy allocations; a newly healthy one pushes its progress deadline. */
    private static Map<String, Deployment.GroupState> recount(Deployment d, List<Placement> members,
                                                              Map<String, Deployment.AllocStatus> statuses,
                                                              java.util.Set<String> decidedNow, Instant now) {
        Map<String, Deployment.GroupState> out = new LinkedHashMap<>();
        d.taskGroups().forEach((name, g) -> {
            List<Placement> mine = members.stream().filter(p -> p.group().equals(name)).toList();
            List<String> canaries = mine.stream().filter(Placement::canary).map(Placement::allocId).toList();
            int healthy = 0;
            int unhealthy = 0;
            boolean progressed = false;
            for (Placement p : mine) {
                Deployment.AllocStatus s = statuses.get(p.allocId());
                if (s != null && Boolean.TRUE.equals(s.healthy())) {
                    healthy++;
                    progressed |= decidedNow.contains(p.allocId());
                } else if (s != null && Boolean.FALSE.equals(s.healthy())) {
                    unhealthy++;
                }
            }
            Instant by = progressed && g.progressDeadline() > 0 ? now.plusNanos(g.progressDeadline()) : g.requireProgressBy();
            out.put(name, g.counted(canaries, mine.size(), healthy, unhealthy, by));
        });
        return out;
    }

    private static boolean complete(Deployment.GroupState g) {
        return !g.awaitsPromotion() && g.healthyAllocs() >= g.desiredTotal();
    }

    /** Every group with canaries promotes itself and has all of them placed and healthy (Nomad promotes them together). */
    private static boolean autoPromotable(Deployment d, List<Placement> members, Map<String, Deployment.AllocStatus> statuses) {
        if (!d.requiresPromotion()) {
            return false;
        }
        for (Deployment.GroupState g : d.taskGroups().values()) {
            if (g.desiredCanaries() < 1) {
                continue;
            }
            long healthy = g.placedCanaries().stream().filter(c -> statuses.containsKey(c)
                    && Boolean.TRUE.equals(statuses.get(c).healthy())).count();
            if (!g.autoPromote() || g.placedCanaries().size() < g.desiredCanaries() || healthy < g.desiredCanaries()) {
                return false;
            }
        }
        return true;
    }

    /** The newest stable version other than the job's own, as Nomad's watcher picks the version to revert to. */
    static Optional<ObjectNode> latestStable(ObjectNode job, List<ObjectNode> versions) {
        long current = job.path("Version").asLong();
        return versions.stream().filter(v -> v.path("Version").asLong() != current && v.path("Stable").asBoolean(false)).findFirst();
    }

    private static Map<String, JobPlan.Rollout> rollouts(Deployment d, Map<String, UpdateStrategy> strategies,
                                                         List<Placement> members, Map<String, Deployment.AllocStatus> statuses) {
        Map<String, JobPlan.Rollout> out = new LinkedHashMap<>();
        d.taskGroups().forEach((name, g) -> {
            UpdateStrategy s = strategies.get(name);
            if (s == null) {
                return;
            }
            String live = d.active() ? d.id() : null;
            JobPlan.CanaryMode adoptOrDiscard = g.promoted() || g.desiredCanaries() == 0 ? JobPlan.CanaryMode.ADOPT
                    : JobPlan.CanaryMode.DISCARD;
            JobPlan.Rollout r = switch (d.status()) {
                case Deployment.RUNNING -> {
                    if (g.awaitsPromotion()) {
                        yield new JobPlan.Rollout(live, 0, Math.max(0, g.desiredCanaries() - g.placedCanaries().size()),
                                JobPlan.CanaryMode.AWAIT);
                    }
                    long inflight = members.stream().filter(p -> p.group().equals(name) && !p.replaced() && !p.canary()
                            && (!statuses.containsKey(p.allocId()) || statuses.get(p.allocId()).healthy() == null)).count();
                    yield new JobPlan.Rollout(live, (int) Math.max(0, s.maxParallel() - inflight), 0, JobPlan.CanaryMode.ADOPT);
                }
                case Deployment.PAUSED -> new JobPlan.Rollout(live, 0, 0,
                        g.awaitsPromotion() ? JobPlan.CanaryMode.AWAIT : JobPlan.CanaryMode.ADOPT);
                case Deployment.SUCCESSFUL -> new JobPlan.Rollout(null, Integer.MAX_VALUE, 0, JobPlan.CanaryMode.ADOPT);
                default -> new JobPlan.Rollout(null, 0, 0, adoptOrDiscard);
            };
            out.put(name, r);
        });
        return out;
    }
}
