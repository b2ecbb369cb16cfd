package dev.berth.alloc.task;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import dev.berth.alloc.runner.RunnerHarness;
import dev.berth.alloc.spec.RestartPolicy;
import dev.berth.driver.ExitResult;

import static org.assertj.core.api.Assertions.assertThat;

/** Restart counters survive an agent restart: the attempt count and the interval start both come back. */
class RestartTrackerRestoreTest {

    final Instant now = Instant.parse("2026-11-22T01:00:00Z");
    final Clock clock = Clock.fixed(now, ZoneOffset.UTC);
    final RestartPolicy policy = new RestartPolicy(2, Duration.ofMinutes(10), Duration.ofSeconds(1), RestartPolicy.MODE_FAIL);

    RestartTracker tracker() {
        return new RestartTracker(policy, "service", null, false, clock, RunnerHarness.MAX_JITTER);
    }

    @Test
    void attemptsUsedBeforeTheRestartStillCount() {
        RestartTracker t = tracker().continueFrom(new RestartTracker.Counters(2, now.minus(Duration.ofMinutes(3))));
        RestartDecision d = t.setExitResult(ExitResult.ofCode(3)).decide();
        assertThat(d).isInstanceOf(RestartDecision.NotRestarting.class);
    }

    @Test
    void anIntervalThatEndedWhileTheAgentWasDownStartsOver() {
        RestartTracker t = tracker().continueFrom(new RestartTracker.Counters(2, now.minus(Duration.ofMinutes(11))));
        assertThat(t.setExitResult(ExitResult.ofCode(3)).decide()).isInstanceOf(RestartDecision.Restarting.class);
        assertThat(t.counters().count()).isEqualTo(1);
    }

    @Test
    void theCountersRoundTrip() {
        RestartTracker t = tracker().continueFrom(new RestartTracker.Counters(1, now.minus(Duration.ofMinutes(1))));
        assertThat(t.counters()).isEqualTo(new RestartTracker.Counters(1, now.minus(Duration.ofMinutes(1))));
        assertThat(tracker().continueFrom(null).counters().count()).isZero();
    }
}
