package dev.berth.job;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/** One deployment step, computed from job versions, the deployment so far and health verdicts (no agent, fixed times). */
class DeploymentPlanTest {

    static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    final JsonMapper json = JsonMapper.builder().build();

    ObjectNode job(long version, String marker, String update, boolean stable) {
        ObjectNode j = (ObjectNode) json.readTree("""
                {"ID":"j","Type":"service","Update":{%s},"TaskGroups":[{"Name":"g","Count":3,
                  "Tasks":[{"Name":"t","Driver":"mock_driver","Config":{"run_for":"%s"}}]}]}""".formatted(update, marker));
        JobDefaults.canonicalize(j);
        j.put("Version", version).put("CreateIndex", 5).put("Stable", stable);
        return j;
    }

    Placement placed(ObjectNode job, int index, String deployment, boolean canary) {
        return new Placement("a" + job.path("Version").asLong() + (canary ? "c" : "") + index, "default", "j", "g", index,
                job.path("Version").asLong(), GroupHash.of(job.path("TaskGroups").get(0)), null, List.of(), false, true, "running",
                null, false, 10 + index, null, deployment, canary);
    }

    DeploymentPlan step(ObjectNode job, List<ObjectNode> versions, Deployment latest, Map<String, Deployment.AllocStatus> statuses,
                        List<Placement> placements, Map<String, AllocHealth.Verdict> verdicts, Instant now) {
        return DeploymentPlan.compute(new DeploymentPlan.Input(job, versions, latest, statuses, placements, verdicts, now, "d-new"));
    }

    static final AllocHealth.Verdict HEALTHY = new AllocHealth.Verdict.Healthy();
    static final AllocHealth.Verdict UNHEALTHY = new AllocHealth.Verdict.Unhealthy("Task \"t\" failed");

    @Test
    void aNewVersionStartsADeploymentAndCancelsTheOneBefore() {
        ObjectNode v0 = job(0, "x", "\"MaxParallel\":1", true);
        ObjectNode v1 = job(1, "y", "\"MaxParallel\":1", false);
        Deployment d0 = step(v0, List.of(v0), null, Map.of(), List.of(), Map.of(), NOW).deployment();
        assertThat(d0.status()).isEqualTo(Deployment.RUNNING);
        DeploymentPlan next = step(v1, List.of(v1, v0), d0, Map.of(), List.of(), Map.of(), NOW);
        assertThat(next.cancelled().status()).isEqualTo(Deployment.CANCELLED);
        assertThat(next.cancelled().statusDescription()).isEqualTo("Cancelled due to newer version of job");
        assertThat(next.deployment().id()).isEqualTo("d-new");
        assertThat(next.deployment().jobVersion()).isEqualTo(1);
        assertThat(next.deployment().taskGroups().get("g").desiredTotal()).isEqualTo(3);
        assertThat(next.deployment().taskGroups().get("g").requireProgressBy()).isEqualTo(NOW.plus(Duration.ofMinutes(10)));
    }

    @Test
    void aStoppedJobOrAGroupWithoutMaxParallelHasNoDeployment() {
        ObjectNode v0 = job(0, "x", "\"MaxParallel\":1", false);
        Deployment d0 = step(v0, List.of(v0), null, Map.of(), List.of(), Map.of(), NOW).deployment();
        ObjectNode stopped = v0.deepCopy().put("Stop", true);
        DeploymentPlan plan = step(stopped, List.of(stopped), d0, Map.of(), List.of(), Map.of(), NOW);
        assertThat(plan.deployment().statusDescription()).isEqualTo("Cancelled because job is stopped");
        assertThat(plan.rollouts()).isEmpty();
        ObjectNode none = job(0, "x", "\"MaxParallel\":0", false);
        assertThat(step(none, List.of(none), null, Map.of(), List.of(), Map.of(), NOW).deployment()).isNull();
    }

    @Test
    void replacementsStartMaxParallelAtATimeAndEachHealthyOneOpensTheNextSlot() {
        ObjectNode v0 = job(0, "x", "\"MaxParallel\":2", true);
        ObjectNode v1 = job(1, "y", "\"MaxParallel\":2", false);
        List<Placement> old = List.of(placed(v0, 0, null, false), placed(v0, 1, null, false), placed(v0, 2, null, false));
        DeploymentPlan first = step(v1, List.of(v1, v0), null, Map.of(), old, Map.of(), NOW);
        assertThat(first.rollouts().get("g")).isEqualTo(new JobPlan.Rollout("d-new", 2, 0, JobPlan.CanaryMode.ADOPT));

        List<Placement> rolling = List.of(old.get(2), placed(v1, 0, "d-new", false), placed(v1, 1, "d-new", false));
        DeploymentPlan waiting = step(v1, List.of(v1, v0), first.deployment(), Map.of(), rolling, Map.of(), NOW.plusSeconds(5));
        assertThat(waiting.rollouts().get("g").budget()).isZero();
        assertThat(waiting.deployment().taskGroups().get("g").placedAllocs()).isEqualTo(2);

        Instant later = NOW.plusSeconds(20);
        DeploymentPlan oneHealthy = step(v1, List.of(v1, v0), waiting.deployment(), Map.of(), rolling,
                Map.of("a10", HEALTHY, "a11", new AllocHealth.Verdict.Waiting()), later);
        assertThat(oneHealthy.health()).containsOnlyKeys("a10");
        assertThat(oneHealthy.health().get("a10").healthy()).isTrue();
        assertThat(oneHealthy.rollouts().get("g").budget()).isEqualTo(1);
        Deployment.GroupState g = oneHealthy.deployment().taskGroups().get("g");
        assertThat(g.healthyAllocs()).isEqualTo(1);
        assertThat(g.requireProgressBy()).isEqualTo(later.plus(Duration.ofMinutes(10)));
        assertThat(oneHealthy.deployment().status()).isEqualTo(Deployment.RUNNING);
        assertThat(oneHealthy.markStable()).isFalse();
    }

    @Test
    void everyAllocationHealthyCompletesTheDeploymentAndMarksTheVersionStable() {
        ObjectNode v1 = job(1, "y", "\"MaxParallel\":3", false);
        List<Placement> all = List.of(placed(v1, 0, "d-new", false), placed(v1, 1, "d-new", false), placed(v1, 2, "d-new", false));
        Deployment d = step(v1, List.of(v1), null, Map.of(), List.of(), Map.of(), NOW).deployment();
        DeploymentPlan done = step(v1, List.of(v1), d, Map.of(), all, Map.of("a10", HEALTHY, "a11", HEALTHY, "a12", HEALTHY), NOW);
        assertThat(done.deployment().status()).isEqualTo(Deployment.SUCCESSFUL);
        assertThat(done.deployment().statusDescription()).isEqualTo("Deployment completed successfully");
        assertThat(done.markStable()).isTrue();
        assertThat(done.rollouts().get("g").deploymentId()).isNull();
    }

    @Test
    void anUnhealthyAllocationFailsTheDeploymentAndAutoRevertPicksTheLatestStableVersion() {
        Map<String, Boolean> revertCases = new LinkedHashMap<>();
        revertCases.put("\"MaxParallel\":1,\"AutoRevert\":true", true);
        revertCases.put("\"MaxParallel\":1", false);
        revertCases.forEach((update, reverts) -> {
            ObjectNode v0 = job(0, "x", update, true);
            ObjectNode v1 = job(1, "y", update, false);
            List<Placement> ps = List.of(placed(v0, 1, null, false), placed(v0, 2, null, false), placed(v1, 0, "d-new", false));
            Deployment d = step(v1, List.of(v1, v0), null, Map.of(), List.of(), Map.of(), NOW).deployment();
            DeploymentPlan failed = step(v1, List.of(v1, v0), d, Map.of(), ps, Map.of("a10", UNHEALTHY), NOW);
            assertThat(failed.deployment().status()).isEqualTo(Deployment.FAILED);
            assertThat(failed.deployment().statusDescription()).isEqualTo(reverts
                    ? "Failed due to unhealthy allocations - rolling back to job version 0" : "Failed due to unhealthy allocations");
            assertThat(failed.revertTo()).isEqualTo(reverts ? 0L : null);
            assertThat(failed.rollouts().get("g").budget()).isZero();
        });
    }

    @Test
    void autoRevertWithoutAStableVersionOrToTheSameSpecDoesNotRevert() {
        String update = "\"MaxParallel\":1,\"AutoRevert\":true";
        ObjectNode v0 = job(0, "x", update, false);
        ObjectNode v1 = job(1, "y", update, false);
        List<Placement> ps = List.of(placed(v1, 0, "d-new", false));
        Deployment d = step(v1, List.of(v1, v0), null, Map.of(), List.of(), Map.of(), NOW).deployment();
        DeploymentPlan none = step(v1, List.of(v1, v0), d, Map.of(), ps, Map.of("a10", UNHEALTHY), NOW);
        assertThat(none.deployment().statusDescription())
                .isEqualTo("Failed due to unhealthy allocations - no stable job version to auto revert to");
        assertThat(none.revertTo()).isNull();

        ObjectNode stableSame = job(0, "y", update, true);
        DeploymentPlan same = step(v1, List.of(v1, stableSame), d, Map.of(), ps, Map.of("a10", UNHEALTHY), NOW);
        assertThat(same.deployment().statusDescription()).isEqualTo(
                "Failed due to unhealthy allocations - not rolling back to stable job version 0 as current job has same specification");
        assertThat(same.revertTo()).isNull();
    }

    @Test
    void noHealthyAllocationBeforeTheProgressDeadlineFailsTheDeployment() {
        ObjectNode v1 = job(1, "y", "\"MaxParallel\":1,\"ProgressDeadline\":60000000000", false);
        Deployment d = step(v1, List.of(v1), null, Map.of(), List.of(), Map.of(), NOW).deployment();
        List<Placement> ps = List.of(placed(v1, 0, "d-new", false));
        assertThat(step(v1, List.of(v1), d, Map.of(), ps, Map.of(), NOW.plusSeconds(60)).deployment().status())
                .isEqualTo(Deployment.RUNNING);
        DeploymentPlan late = step(v1, List.of(v1), d, Map.of(), ps, Map.of(), NOW.plusSeconds(61));
        assertThat(late.deployment().status()).isEqualTo(Deployment.FAILED);
        assertThat(late.deployment().statusDescription()).isEqualTo("Failed due to progress deadline");
    }

    @Test
    void canariesArePlacedFirstAndWaitForAPromotionByHandOrAutomatic() {
        for (boolean auto : List.of(false, true)) {
            String update = "\"MaxParallel\":1,\"Canary\":1,\"AutoPromote\":" + auto;
            ObjectNode v0 = job(0, "x", update, true);
            ObjectNode v1 = job(1, "y", update, false);
            List<Placement> old = List.of(placed(v0, 0, null, false), placed(v0, 1, null, false), placed(v0, 2, null, false));
            DeploymentPlan first = step(v1, List.of(v1, v0), null, Map.of(), old, Map.of(), NOW);
            assertThat(first.deployment().taskGroups().get("g").desiredCanaries()).isEqualTo(1);
            assertThat(first.rollouts().get("g")).isEqualTo(new JobPlan.Rollout("d-new", 0, 1, JobPlan.CanaryMode.AWAIT));

            List<Placement> withCanary = new java.util.ArrayList<>(old);
            withCanary.add(placed(v1, 0, "d-new", true));
            DeploymentPlan healthy = step(v1, List.of(v1, v0), first.deployment(), Map.of(), withCanary,
                    Map.of("a1c0", HEALTHY), NOW.plusSeconds(15));
            Deployment.GroupState g = healthy.deployment().taskGroups().get("g");
            assertThat(g.placedCanaries()).containsExactly("a1c0");
            assertThat(g.promoted()).isEqualTo(auto);
            assertThat(healthy.deployment().statusDescription()).isEqualTo(auto ? "Deployment is running"
                    : "Deployment is running but requires manual promotion");
            assertThat(healthy.rollouts().get("g")).isEqualTo(auto ? new JobPlan.Rollout("d-new", 1, 0, JobPlan.CanaryMode.ADOPT)
                    : new JobPlan.Rollout("d-new", 0, 0, JobPlan.CanaryMode.AWAIT));
            assertThat(healthy.health().get("a1c0").canary()).isTrue();
        }
    }

    @Test
    void aPausedDeploymentStartsNothingAndAFailedOneDiscardsItsCanaries() {
        String update = "\"MaxParallel\":1,\"Canary\":1";
        ObjectNode v0 = job(0, "x", update, true);
        ObjectNode v1 = job(1, "y", update, false);
        List<Placement> old = List.of(placed(v0, 0, null, false));
        Deployment d = step(v1, List.of(v1, v0), null, Map.of(), old, Map.of(), NOW).deployment();
        DeploymentPlan paused = step(v1, List.of(v1, v0), d.withStatus(Deployment.PAUSED, Deployment.DESC_PAUSED), Map.of(), old,
                Map.of(), NOW);
        assertThat(paused.rollouts().get("g")).isEqualTo(new JobPlan.Rollout("d-new", 0, 0, JobPlan.CanaryMode.AWAIT));
        DeploymentPlan failed = step(v1, List.of(v1, v0), d.withStatus(Deployment.FAILED, Deployment.DESC_FAILED_BY_USER), Map.of(),
                old, Map.of(), NOW);
        assertThat(failed.rollouts().get("g")).isEqualTo(new JobPlan.Rollout(null, 0, 0, JobPlan.CanaryMode.DISCARD));
    }
}
