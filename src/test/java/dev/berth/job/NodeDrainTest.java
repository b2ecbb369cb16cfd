package dev.berth.job;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.berth.fingerprint.NodeEvent;
import dev.berth.fingerprint.NodeRegistry;
import dev.berth.fingerprint.NodeScheduling;
import dev.berth.fingerprint.TestNodes;
import dev.berth.support.TestClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Eligibility and drain state as Nomad's node endpoints change it: checks, texts, events, LastDrain, persistence. */
class NodeDrainTest {

    final TestClock clock = new TestClock();
    final NodeRegistry node = TestNodes.registry(clock);
    final PeriodicLauncherTest.MemoryJobStore store = new PeriodicLauncherTest.MemoryJobStore();
    final NodeDrain drain = new NodeDrain(node, store, clock);
    final String id = node.current().id();

    String lastEvent() {
        return node.current().events().getLast().message();
    }

    @Test
    void eligibilityIsCheckedAndTurnsWithNomadsEvents() throws Exception {
        assertThatExceptionOfType(JobException.class).isThrownBy(() -> drain.setEligibility(id, "maybe"))
                .withMessage("invalid scheduling eligibility \"maybe\"");
        assertThatExceptionOfType(JobException.class).isThrownBy(() -> drain.setEligibility("other", "ineligible"))
                .withMessage("node not found").satisfies(e -> assertThat(e.kind()).isEqualTo(JobException.Kind.NOT_FOUND));
        assertThat(drain.eligible()).isTrue();

        long before = node.current().modifyIndex();
        NodeDrain.Update u = drain.setEligibility(id, "ineligible");
        assertThat(u.nodeModifyIndex()).isGreaterThan(before);
        assertThat(drain.eligible()).isFalse();
        assertThat(lastEvent()).isEqualTo("Node marked as ineligible for scheduling");
        int events = node.current().events().size();
        drain.setEligibility(id, "ineligible");
        assertThat(node.current().events()).hasSize(events);   // no change, no event

        drain.setEligibility(id, "eligible");
        assertThat(lastEvent()).isEqualTo("Node marked as eligible for scheduling");
    }

    @Test
    void aDrainMakesTheNodeIneligibleKeepsItsStartAndEndsCompleteOrCanceled() throws Exception {
        drain.setDrain(id, new NodeDrain.DrainRequest(Duration.ofMinutes(5), false, false, Map.of("reason", "kernel")), "");
        NodeScheduling s = drain.current();
        assertThat(s.eligibility()).isEqualTo("ineligible");
        assertThat(s.drain().startedAt()).isEqualTo(clock.instant());
        assertThat(s.drain().forceDeadline()).isEqualTo(clock.instant().plus(Duration.ofMinutes(5)));
        assertThat(s.lastDrain().status()).isEqualTo("draining");
        assertThat(s.lastDrain().meta()).containsEntry("reason", "kernel");
        assertThat(lastEvent()).isEqualTo("Node drain strategy set");
        assertThatExceptionOfType(JobException.class).isThrownBy(() -> drain.setEligibility(id, "eligible"))
                .withMessage("can not set node's scheduling eligibility to eligible while it is draining");

        clock.advance(Duration.ofMinutes(1));
        drain.setDrain(id, new NodeDrain.DrainRequest(Duration.ofMinutes(5), true, false, null), "");
        assertThat(lastEvent()).isEqualTo("Node drain strategy updated");
        assertThat(drain.current().drain().startedAt()).isEqualTo(clock.instant().minus(Duration.ofMinutes(1)));
        assertThat(drain.current().lastDrain().meta()).containsEntry("reason", "kernel");

        drain.complete(true);
        NodeEvent done = node.current().events().getLast();
        assertThat(done.message()).isEqualTo("Node drain complete");
        assertThat(done.subsystem()).isEqualTo("Drain");
        assertThat(done.details()).containsEntry("deadline_reached", "true");
        assertThat(drain.current().drain()).isNull();
        assertThat(drain.current().lastDrain().status()).isEqualTo("complete");
        assertThat(drain.current().eligibility()).isEqualTo("ineligible");

        drain.setDrain(id, new NodeDrain.DrainRequest(Duration.ofSeconds(-1), false, false, null), "");
        drain.setDrain(id, new NodeDrain.DrainRequest(null, false, true, null), "");
        assertThat(lastEvent()).isEqualTo("Node drain disabled");
        assertThat(drain.current().lastDrain().status()).isEqualTo("canceled");
        assertThat(drain.current().eligibility()).isEqualTo("eligible");
    }

    @Test
    void eligibilityDrainAndMigratedAllocationsSurviveARestart() throws Exception {
        drain.setDrain(id, new NodeDrain.DrainRequest(Duration.ZERO, false, false, null), "");
        drain.markMigrated("a1");

        NodeRegistry restarted = TestNodes.registry(clock);
        NodeDrain again = new NodeDrain(restarted, store, clock);
        assertThat(again.current()).isEqualTo(drain.current());
        again.restore();
        assertThat(again.draining()).isTrue();
        assertThat(again.migrated("a1")).isTrue();
        assertThat(restarted.current().scheduling().eligibility()).isEqualTo("ineligible");
    }
}
