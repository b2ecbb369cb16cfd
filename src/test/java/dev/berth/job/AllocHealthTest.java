package dev.berth.job;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The health tracker's verdict for one allocation, from what it sees and the time (a table of cases). */
class AllocHealthTest {

    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    static UpdateStrategy strategy(String mode) {
        return new UpdateStrategy(1, mode, Duration.ofSeconds(10), Duration.ofSeconds(60), Duration.ofMinutes(10), false, 0, false);
    }

    static AllocHealth.Observation seen(boolean failed, Instant up, int checks, Instant passing) {
        return new AllocHealth.Observation(T0, failed, failed ? "t" : null, up, checks, passing);
    }

    record Case(String mode, AllocHealth.Observation seen, Instant now, Class<? extends AllocHealth.Verdict> expected) {
    }

    @Test
    void verdicts() {
        Instant up = T0.plusSeconds(2);
        Case[] cases = {
            // tasks up for min_healthy_time: healthy; one second short: waiting
            new Case("task_states", seen(false, up, 0, null), up.plusSeconds(10), AllocHealth.Verdict.Healthy.class),
            new Case("task_states", seen(false, up, 0, null), up.plusSeconds(9), AllocHealth.Verdict.Waiting.class),
            // a failed task is unhealthy at once
            new Case("task_states", seen(true, up, 0, null), up.plusSeconds(1), AllocHealth.Verdict.Unhealthy.class),
            // checks mode: the checks' passing time counts, not the tasks'
            new Case("checks", seen(false, up, 1, up.plusSeconds(5)), up.plusSeconds(12), AllocHealth.Verdict.Waiting.class),
            new Case("checks", seen(false, up, 1, up.plusSeconds(5)), up.plusSeconds(15), AllocHealth.Verdict.Healthy.class),
            // checks not passing: unhealthy only once the healthy deadline has passed
            new Case("checks", seen(false, up, 1, null), T0.plusSeconds(59), AllocHealth.Verdict.Waiting.class),
            new Case("checks", seen(false, up, 1, null), T0.plusSeconds(60), AllocHealth.Verdict.Unhealthy.class),
            // checks mode without checks: the tasks decide
            new Case("checks", seen(false, up, 0, null), up.plusSeconds(10), AllocHealth.Verdict.Healthy.class),
            // tasks never up: the deadline decides
            new Case("task_states", seen(false, null, 0, null), T0.plusSeconds(60), AllocHealth.Verdict.Unhealthy.class),
            // manual: only set by hand, whatever is seen
            new Case("manual", seen(true, up, 0, null), T0.plusSeconds(600), AllocHealth.Verdict.Waiting.class),
        };
        for (Case c : cases) {
            assertThat(AllocHealth.judge(strategy(c.mode()), c.seen(), c.now())).as(c.toString()).isInstanceOf(c.expected());
        }
    }
}
