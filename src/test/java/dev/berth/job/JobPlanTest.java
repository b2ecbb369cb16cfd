package dev.berth.job;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.alloc.task.Interpolator;

import static org.assertj.core.api.Assertions.assertThat;

/** One reconcile pass, computed from placements with known statuses (no allocations needed). */
class JobPlanTest {

    static final long NOW = 1_000_000_000L;
    final JsonMapper json = JsonMapper.builder().build();
    final Interpolator node = Interpolator.forNode(Map.of("attr.kernel.name", "linux"));

    ObjectNode job(String type, int count, String marker, long version, String extraGroup) {
        ObjectNode j = (ObjectNode) json.readTree("""
                {"ID":"j","Type":"%s","TaskGroups":[{"Name":"g","Count":%d,%s
                  "Tasks":[{"Name":"t","Driver":"raw_exec","Config":{"command":"%s"}}]}]}""".formatted(type, count, extraGroup, marker));
        JobDefaults.canonicalize(j);
        j.put("Version", version);
        return j;
    }

    Placement placed(ObjectNode job, int index, String status, Long failedAt, List<Long> reschedules) {
        return new Placement("a" + index, "default", "j", "g", index, job.path("Version").asLong(),
                GroupHash.of(job.path("TaskGroups").get(0)), null, reschedules, false, false, status, failedAt, false, index, null, null, false);
    }

    JobPlan plan(ObjectNode job, List<Placement> mine) {
        return JobPlan.compute(job, mine, id -> Optional.empty(), NOW, node, name -> Optional.empty());
    }

    @Test
    void missingIndexesArePlacedAndScaleDownStopsTheHighest() {
        ObjectNode v0 = job("service", 3, "x", 0, "");
        assertThat(plan(v0, List.of()).places()).extracting(JobPlan.Place::index).containsExactly(0, 1, 2);
        List<Placement> three = List.of(placed(v0, 0, "running", null, List.of()), placed(v0, 1, "running", null, List.of()),
                placed(v0, 2, "running", null, List.of()));
        JobPlan down = plan(job("service", 1, "x", 0, ""), three);
        assertThat(down.stops()).extracting(Placement::index).containsExactly(2, 1);
        assertThat(down.places()).isEmpty();
    }

    @Test
    void aCountOrMetaChangeIsInPlaceAndATaskChangeIsDestructiveWithinMaxParallel() {
        ObjectNode v0 = job("service", 3, "x", 0, "");
        List<Placement> three = List.of(placed(v0, 0, "running", null, List.of()), placed(v0, 1, "running", null, List.of()),
                placed(v0, 2, "running", null, List.of()));
        JobPlan meta = plan(job("service", 3, "x", 1, "\"Meta\":{\"a\":\"b\"},"), three);
        assertThat(meta.inPlace()).hasSize(3);
        assertThat(meta.places()).isEmpty();

        JobPlan changed = plan(job("service", 3, "y", 1, "\"Update\":{\"MaxParallel\":1},"), three);
        assertThat(changed.places()).hasSize(1);
        assertThat(changed.places().getFirst().update()).isTrue();
        assertThat(changed.places().getFirst().previous().allocId()).isEqualTo("a0");
        assertThat(changed.desired().get("g").get("DestructiveUpdate")).isEqualTo(3);
    }

    @Test
    void completeBatchAllocationsStayCompleteAndServiceOnesAreReplaced() {
        ObjectNode batch = job("batch", 1, "x", 0, "");
        assertThat(plan(batch, List.of(placed(batch, 0, "complete", null, List.of()))).places()).isEmpty();
        ObjectNode service = job("service", 1, "x", 0, "");
        assertThat(plan(service, List.of(placed(service, 0, "complete", null, List.of()))).places()).hasSize(1);
    }

    @Test
    void failedServiceAllocationsAreRescheduledAfterTheDelay() {
        ObjectNode job = job("service", 1, "x", 0, "");   // default: 30 s, exponential, unlimited
        assertThat(plan(job, List.of(placed(job, 0, "failed", NOW - 10_000, List.of()))).places()).isEmpty();
        JobPlan due = plan(job, List.of(placed(job, 0, "failed", NOW - 31_000, List.of())));
        assertThat(due.places()).hasSize(1);
        assertThat(due.places().getFirst().previous().allocId()).isEqualTo("a0");
        assertThat(due.places().getFirst().reschedules()).containsExactly(NOW);
        // the second reschedule waits 60 s (exponential)
        assertThat(plan(job, List.of(placed(job, 0, "failed", NOW - 31_000, List.of(NOW - 100_000)))).places()).isEmpty();
    }

    @Test
    void batchReschedulesOnceWithinItsInterval() {
        ObjectNode job = job("batch", 1, "x", 0, "");   // default: 1 attempt in 24 h, 5 s constant
        assertThat(plan(job, List.of(placed(job, 0, "failed", NOW - 6_000, List.of()))).places()).hasSize(1);
        assertThat(plan(job, List.of(placed(job, 0, "failed", NOW - 6_000, List.of(NOW - 60_000)))).places()).isEmpty();
    }

    @Test
    void anUnmetConstraintMakesThePlacementInfeasible() {
        ObjectNode job = job("service", 1, "x", 0,
                "\"Constraints\":[{\"LTarget\":\"${attr.kernel.name}\",\"RTarget\":\"windows\",\"Operand\":\"=\"}],");
        assertThat(plan(job, List.of()).places().getFirst().infeasible()).isEqualTo("${attr.kernel.name} = windows");
        ObjectNode ok = job("service", 1, "x", 0,
                "\"Constraints\":[{\"LTarget\":\"${attr.kernel.name}\",\"RTarget\":\"linux\",\"Operand\":\"=\"}],");
        assertThat(plan(ok, List.of()).places().getFirst().infeasible()).isNull();
    }

    @Test
    void rescheduleDelays() {
        Reschedule exp = new Reschedule(0, Duration.ZERO, Duration.ofSeconds(30), "exponential", Duration.ofMinutes(5), true);
        assertThat(exp.delayAfter(0)).isEqualTo(Duration.ofSeconds(30));
        assertThat(exp.delayAfter(2)).isEqualTo(Duration.ofSeconds(120));
        assertThat(exp.delayAfter(10)).isEqualTo(Duration.ofMinutes(5));
        Reschedule fib = new Reschedule(5, Duration.ofHours(1), Duration.ofSeconds(10), "fibonacci", Duration.ZERO, false);
        assertThat(List.of(fib.delayAfter(0), fib.delayAfter(1), fib.delayAfter(2), fib.delayAfter(3), fib.delayAfter(4)))
                .containsExactly(Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(20), Duration.ofSeconds(30),
                        Duration.ofSeconds(50));
        assertThat(fib.allowed(List.of(1L, 2L, 3L, 4L, 5L), 10L)).isFalse();
        assertThat(fib.allowed(List.of(1L), 10L)).isTrue();
    }

    @Test
    void constraintOperators() {
        assertThat(Constraints.meets("5.10.0", "version", ">= 4.0, < 6")).isTrue();
        assertThat(Constraints.meets("3.2", "version", ">= 4.0")).isFalse();
        assertThat(Constraints.meets("a,b,c", "set_contains", "a,c")).isTrue();
        assertThat(Constraints.meets("a,b", "set_contains_any", "x,b")).isTrue();
        assertThat(Constraints.meets("linux", "regexp", "^lin")).isTrue();
        assertThat(Constraints.meets(null, "is_not_set", null)).isTrue();
        assertThat(Constraints.meets("8", ">", "10")).isFalse();
    }

    Placement canary(ObjectNode job, int index) {
        return new Placement("c" + index, "default", "j", "g", index, job.path("Version").asLong(),
                GroupHash.of(job.path("TaskGroups").get(0)), null, List.of(), false, false, "running", null, false, 100 + index, null,
                "d", true);
    }

    JobPlan plan(ObjectNode job, List<Placement> mine, JobPlan.Rollout rollout) {
        return JobPlan.compute(job, mine, id -> Optional.empty(), NOW, node, name -> Optional.empty(), Map.of("g", rollout));
    }

    @Test
    void aDeploymentsBudgetLimitsTheReplacementsOfThisPass() {
        ObjectNode v0 = job("service", 3, "x", 0, "");
        List<Placement> three = List.of(placed(v0, 0, "running", null, List.of()), placed(v0, 1, "running", null, List.of()),
                placed(v0, 2, "running", null, List.of()));
        ObjectNode v1 = job("service", 3, "y", 1, "\"Update\":{\"MaxParallel\":3},");
        assertThat(plan(v1, three, new JobPlan.Rollout("d", 2, 0, JobPlan.CanaryMode.ADOPT)).places())
                .extracting(JobPlan.Place::index).containsExactly(0, 1);
        JobPlan none = plan(v1, three, new JobPlan.Rollout("d", 0, 0, JobPlan.CanaryMode.ADOPT));
        assertThat(none.places()).isEmpty();
        assertThat(none.desired().get("g")).containsEntry("DestructiveUpdate", 3);
    }

    @Test
    void canariesArePlacedBesideWaitForPromotionThenTakeOverOrGo() {
        ObjectNode v0 = job("service", 2, "x", 0, "");
        ObjectNode v1 = job("service", 2, "y", 1, "");
        List<Placement> two = List.of(placed(v0, 0, "running", null, List.of()), placed(v0, 1, "running", null, List.of()));
        JobPlan first = plan(v1, two, new JobPlan.Rollout("d", 0, 1, JobPlan.CanaryMode.AWAIT));
        assertThat(first.places()).singleElement().satisfies(p -> {
            assertThat(p.canary()).isTrue();
            assertThat(p.index()).isZero();
            assertThat(p.previous()).isNull();
        });
        assertThat(first.stops()).isEmpty();

        List<Placement> withCanary = List.of(two.get(0), two.get(1), canary(v1, 0));
        JobPlan waiting = plan(v1, withCanary, new JobPlan.Rollout("d", 0, 0, JobPlan.CanaryMode.AWAIT));
        assertThat(waiting.places()).isEmpty();
        assertThat(waiting.stops()).isEmpty();

        JobPlan promoted = plan(v1, withCanary, new JobPlan.Rollout("d", 1, 0, JobPlan.CanaryMode.ADOPT));
        assertThat(promoted.stops()).extracting(Placement::allocId).containsExactly("a0");
        assertThat(promoted.places()).singleElement().satisfies(p -> {
            assertThat(p.index()).isEqualTo(1);
            assertThat(p.canary()).isFalse();
        });

        JobPlan failed = plan(v1, withCanary, new JobPlan.Rollout(null, 0, 0, JobPlan.CanaryMode.DISCARD));
        assertThat(failed.stops()).extracting(Placement::allocId).containsExactly("c0");
        assertThat(failed.places()).isEmpty();
    }
}
