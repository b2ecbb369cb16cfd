package dev.berth.job;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import tools.jackson.databind.node.ObjectNode;

/**
 * What a user does to a deployment through {@code /v1/deployment/<action>/:id}, with Nomad's refusals: promote its
 * canaries, pause or resume it, fail it (reverting to the stable version when the group asks for it) and set its
 * allocations' health by hand. Each change is stored through {@link Deployments}, creates an evaluation
 * ({@code deployment-watcher}) and asks the scheduler for a pass, which places what the deployment now allows.
 */
public class DeploymentActions {

    private final Deployments deployments;
    private final Clock clock;

    public DeploymentActions(Deployments deployments, Clock clock) {
        this.deployments = deployments;
        this.clock = clock;
    }

    /** Nomad's {@code DeploymentUpdateResponse}: the evaluation, the deployment's new index, the version reverted to. */
    public record Update(String evalId, long evalCreateIndex, long deploymentModifyIndex, Long revertedJobVersion, long index) {
    }

    /** Promotes the canaries of every group ({@code all}) or of the named groups; each must have them all healthy. */
    public Update promote(String id, boolean all, List<String> groups) throws JobException {
        synchronized (deployments) {
            Deployments.Tracked t = active(id, "can't promote terminal deployment");
            Deployment d = t.deployment();
            List<String> unhealthy = new ArrayList<>();
            Map<String, Deployment.GroupState> next = new LinkedHashMap<>();
            Instant now = clock.instant();
            d.taskGroups().forEach((name, g) -> {
                boolean chosen = all || groups.contains(name);
                if (chosen && g.desiredCanaries() > 0) {
                    long healthy = g.placedCanaries().stream().filter(c -> t.allocs().containsKey(c)
                            && Boolean.TRUE.equals(t.allocs().get(c).healthy())).count();
                    if (healthy < g.desiredCanaries()) {
                        unhealthy.add("Task group \"" + name + "\" has " + healthy + "/" + g.desiredCanaries() + " healthy allocations");
                    }
                }
                next.put(name, chosen && g.desiredCanaries() > 0 ? g.promote(now) : g);
            });
            if (!unhealthy.isEmpty()) {
                throw new JobException(JobException.Kind.INVALID, multiError(unhealthy));
            }
            Deployment promoted = d.withGroups(next);
            if (Deployment.RUNNING.equals(promoted.status())) {
                promoted = promoted.withStatus(Deployment.RUNNING, promoted.runningDescription());
            }
            return changed(new Deployments.Tracked(promoted, t.allocs(), t.joined()), Map.of(), null);
        }
    }

    /** Pauses the deployment (nothing more is replaced) or resumes it. */
    public Update pause(String id, boolean pause) throws JobException {
        synchronized (deployments) {
            Deployments.Tracked t = active(id, pause ? "can't pause terminal deployment" : "can't resume terminal deployment");
            Deployment d = pause ? t.deployment().withStatus(Deployment.PAUSED, Deployment.DESC_PAUSED)
                    : t.deployment().withStatus(Deployment.RUNNING, t.deployment().runningDescription());
            return changed(new Deployments.Tracked(d, t.allocs(), t.joined()), Map.of(), null);
        }
    }

    /** Fails the deployment; a group with {@code auto_revert} rolls the job back to its latest stable version. */
    public Update fail(String id) throws JobException {
        synchronized (deployments) {
            Deployments.Tracked t = active(id, "can't fail terminal deployment");
            Deployment d = t.deployment();
            String desc = Deployment.DESC_FAILED_BY_USER;
            Long revert = null;
            if (d.taskGroups().values().stream().anyMatch(Deployment.GroupState::autoRevert)) {
                JobRegistry registry = deployments.registry();
                Optional<ObjectNode> job = registry.job(d.namespace(), d.jobId());
                Optional<ObjectNode> stable = job.flatMap(j -> DeploymentPlan.latestStable(j, registry.versions(d.namespace(), d.jobId())));
                if (stable.isEmpty()) {
                    desc += " - no stable job version to auto revert to";
                } else {
                    revert = stable.get().path("Version").asLong();
                    desc += " - rolling back to job version " + revert;
                }
            }
            return changed(new Deployments.Tracked(d.withStatus(Deployment.FAILED, desc), t.allocs(), t.joined()), Map.of(), revert);
        }
    }

    /** Sets the health of the deployment's allocations by hand (the only way for {@code health_check = "manual"}). */
    public Update setHealth(String id, List<String> healthy, List<String> unhealthy) throws JobException {
        if (healthy.isEmpty() && unhealthy.isEmpty()) {
            throw new JobException(JobException.Kind.INVALID, "must specify at least one healthy/unhealthy allocation ID");
        }
        synchronized (deployments) {
            Deployments.Tracked t = active(id, "can't set health of allocations for a terminal deployment");
            List<String> members = memberIds(t);
            Map<String, Deployment.AllocStatus> health = new LinkedHashMap<>();
            Instant now = clock.instant();
            for (String a : healthy) {
                health.put(member(a, id, members), new Deployment.AllocStatus(true, now, canary(t, a), 0));
            }
            for (String a : unhealthy) {
                health.put(member(a, id, members), new Deployment.AllocStatus(false, now, canary(t, a), 0));
            }
            return changed(t, health, null);
        }
    }

    private List<String> memberIds(Deployments.Tracked t) {
        List<String> out = new ArrayList<>(t.joined().keySet());
        t.deployment().taskGroups().values().forEach(g -> out.addAll(g.placedCanaries()));
        return out;
    }

    private static String member(String allocId, String id, List<String> members) throws JobException {
        if (!members.contains(allocId)) {
            throw new JobException(JobException.Kind.INVALID, "alloc \"" + allocId + "\" is not part of deployment \"" + id + "\"");
        }
        return allocId;
    }

    private static boolean canary(Deployments.Tracked t, String allocId) {
        return t.deployment().taskGroups().values().stream().anyMatch(g -> g.placedCanaries().contains(allocId));
    }

    private Deployments.Tracked active(String id, String terminal) throws JobException {
        Deployments.Tracked t = deployments.tracked(id);
        if (t == null) {
            throw new JobException(JobException.Kind.NOT_FOUND, "deployment not found");
        }
        if (!t.deployment().active()) {
            throw new JobException(JobException.Kind.INVALID, terminal);
        }
        return t;
    }

    private Update changed(Deployments.Tracked t, Map<String, Deployment.AllocStatus> health, Long revertTo) throws JobException {
        long index = deployments.saveTracked(t, health);
        JobRegistry registry = deployments.registry();
        Deployment d = t.deployment();
        ObjectNode job = registry.job(d.namespace(), d.jobId())
                .orElseThrow(() -> new JobException(JobException.Kind.NOT_FOUND, "job not found"));
        if (revertTo != null) {
            ObjectNode stable = registry.versions(d.namespace(), d.jobId()).stream()
                    .filter(v -> v.path("Version").asLong() == revertTo).findFirst().orElseThrow();
            job = registry.register(stable.deepCopy(), null).job();
        }
        ObjectNode eval = registry.createEval(job, "deployment-watcher");
        deployments.kicker().kick(d.namespace(), d.jobId(), eval.path("ID").asString());
        return new Update(eval.path("ID").asString(), eval.path("CreateIndex").asLong(), index, revertTo, eval.path("CreateIndex").asLong());
    }

    private static String multiError(List<String> errors) {
        StringBuilder sb = new StringBuilder(errors.size() + " error" + (errors.size() == 1 ? "" : "s") + " occurred:\n");
        errors.forEach(e -> sb.append("\t* ").append(e).append('\n'));
        return sb.append('\n').toString();
    }
}
