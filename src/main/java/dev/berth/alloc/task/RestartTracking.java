package dev.berth.alloc.task;

import java.time.Instant;

import dev.berth.driver.ExitResult;

/**
 * The restart policy state machine the task runner feeds (Nomad §4). One instance per task runner; thread-safe.
 * {@link #decide()} clears the inputs, as Nomad's {@code GetState} does.
 */
public interface RestartTracking {

    void setStartError(Exception error, boolean recoverable);

    void setExitResult(ExitResult result);

    /** A user or sibling asked for a restart; {@code failure} counts it against the policy. */
    void setRestartTriggered(boolean failure);

    void setKilled();

    RestartDecision decide();

    /** A {@link RestartTracker} behind this port. Counters: the attempt count (interval start not exposed). */
    static RestartTracking of(RestartTracker tracker) {
        return new RestartTracking() {
            @Override
            public void setStartError(Exception error, boolean recoverable) {
                tracker.setStartError(error, recoverable);
            }

            @Override
            public void setExitResult(ExitResult result) {
                tracker.setExitResult(result);
            }

            @Override
            public void setRestartTriggered(boolean failure) {
                tracker.setRestartTriggered(failure);
            }

            @Override
            public void setKilled() {
                tracker.setKilled();
            }

            @Override
            public RestartDecision decide() {
                return tracker.state();
            }

            @Override
            public Counters counters() {
                return new Counters(tracker.count(), tracker.intervalStart());
            }
        };
    }

    /** Persistable counters (attempt count and interval start) so a restore continues the same interval. */
    Counters counters();

    record Counters(int count, Instant intervalStart) {
    }
}
