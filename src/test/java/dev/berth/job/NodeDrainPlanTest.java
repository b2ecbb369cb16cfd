package dev.berth.job;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.berth.fingerprint.NodeScheduling.DrainStrategy;
import dev.berth.job.NodeDrainPlan.Alloc;
import dev.berth.job.NodeDrainPlan.Kind;

import static org.assertj.core.api.Assertions.assertThat;

/** One step of a drain on one node, computed from allocations with known states (no agent needed). */
class NodeDrainPlanTest {

    static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

    static DrainStrategy drain(Duration deadline, boolean ignoreSystemJobs) {
        return new DrainStrategy(deadline, ignoreSystemJobs, deadline.isPositive() ? START.plus(deadline) : null, START);
    }

    static Alloc service(String id, int count, int maxParallel) {
        return new Alloc(id, Kind.SERVICE, "default/web/app", count, maxParallel, false, true, false);
    }

    static Alloc batch(String id) {
        return new Alloc(id, Kind.BATCH, "default/report/run", 1, 1, false, true, false);
    }

    static Alloc system(String id) {
        return new Alloc(id, Kind.SYSTEM, "default/agent/sys", 1, 1, false, true, false);
    }

    /** The allocation as the next step sees it after this one stopped it (told to stop: terminal, migrating). */
    static Alloc stopped(Alloc a) {
        return new Alloc(a.allocId(), a.kind(), a.groupKey(), a.count(), a.maxParallel(), true, false, true);
    }

    @Test
    void serviceAllocationsStopMaxParallelAtATimeAndTheRestWaitForTheDeadlineWhileBatchRunsOn() {
        DrainStrategy d = drain(Duration.ofMinutes(10), false);
        List<Alloc> allocs = new ArrayList<>(List.of(service("w0", 3, 1), service("w1", 3, 1), service("w2", 3, 1), batch("b0")));

        NodeDrainPlan first = NodeDrainPlan.compute(d, START, allocs);
        assertThat(first.stop()).containsExactly("w0");
        assertThat(first.done()).isFalse();

        allocs.set(0, stopped(allocs.get(0)));
        // two of three healthy is count - max_parallel: nothing more until a replacement is healthy, which cannot happen here
        NodeDrainPlan second = NodeDrainPlan.compute(d, START.plusSeconds(60), allocs);
        assertThat(second.stop()).isEmpty();
        assertThat(second.done()).isFalse();

        NodeDrainPlan atDeadline = NodeDrainPlan.compute(d, START.plus(Duration.ofMinutes(10)), allocs);
        assertThat(atDeadline.stop()).containsExactly("w1", "w2", "b0");
        assertThat(atDeadline.done()).isTrue();
        assertThat(atDeadline.deadlineReached()).isTrue();
    }

    @Test
    void maxParallelAsLargeAsTheCountStopsTheWholeGroupAtOnce() {
        NodeDrainPlan plan = NodeDrainPlan.compute(drain(Duration.ZERO, false), START,
                List.of(service("w0", 2, 2), service("w1", 2, 2)));
        assertThat(plan.stop()).containsExactly("w0", "w1");
        assertThat(plan.done()).isTrue();
        assertThat(plan.deadlineReached()).isFalse();
    }

    @Test
    void anAllocationWhoseHealthIsNotKnownYetDoesNotCountAsHealthy() {
        Alloc unknown = new Alloc("w1", Kind.SERVICE, "default/web/app", 2, 1, false, false, false);
        NodeDrainPlan plan = NodeDrainPlan.compute(drain(Duration.ZERO, false), START, List.of(service("w0", 2, 1), unknown));
        assertThat(plan.stop()).isEmpty();   // healthy 1 = count - max_parallel
    }

    @Test
    void systemAllocationsStopLastAndNeverWhenIgnored() {
        List<Alloc> allocs = List.of(system("s0"), batch("b0"));
        assertThat(NodeDrainPlan.compute(drain(Duration.ZERO, false), START, allocs).stop()).isEmpty();

        List<Alloc> batchDone = List.of(system("s0"), stopped(batch("b0")));
        NodeDrainPlan last = NodeDrainPlan.compute(drain(Duration.ZERO, false), START, batchDone);
        assertThat(last.stop()).containsExactly("s0");
        assertThat(last.done()).isTrue();

        NodeDrainPlan ignored = NodeDrainPlan.compute(drain(Duration.ZERO, true), START, batchDone);
        assertThat(ignored.stop()).isEmpty();
        assertThat(ignored.done()).isTrue();
    }

    @Test
    void aNegativeDeadlineForcesEverythingOutAtOnce() {
        NodeDrainPlan plan = NodeDrainPlan.compute(drain(Duration.ofSeconds(-1), false), START,
                List.of(service("w0", 2, 1), service("w1", 2, 1), batch("b0"), system("s0")));
        assertThat(plan.stop()).containsExactly("w0", "w1", "b0", "s0");
        assertThat(plan.done()).isTrue();
        assertThat(plan.deadlineReached()).isTrue();
    }

    @Test
    void aZeroDeadlineNeverForces() {
        DrainStrategy d = drain(Duration.ZERO, false);
        assertThat(d.forceDeadline()).isNull();
        NodeDrainPlan plan = NodeDrainPlan.compute(d, START.plus(Duration.ofDays(365)), List.of(batch("b0")));
        assertThat(plan.stop()).isEmpty();
        assertThat(plan.done()).isFalse();
    }

    @Test
    void aNodeWithNothingLeftIsDoneAtOnce() {
        NodeDrainPlan plan = NodeDrainPlan.compute(drain(Duration.ofHours(1), false), START, List.of(stopped(service("w0", 1, 1))));
        assertThat(plan.stop()).isEmpty();
        assertThat(plan.done()).isTrue();
        assertThat(plan.deadlineReached()).isFalse();
    }
}
