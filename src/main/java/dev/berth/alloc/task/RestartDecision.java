package dev.berth.alloc.task;

import java.time.Duration;
import java.util.Objects;

/**
 * What {@link RestartTracker#decide()} decided after a task stopped. {@link #state()} is Nomad's state string
 * (also the task event type for {@code Restarting}, {@code Not Restarting} and {@code Killed}).
 */
public sealed interface RestartDecision {

    /** Nomad's {@code RestartReason} ({@code ""} when there is none). */
    String reason();

    /** Nomad's state string: {@code Killed}, {@code Restarting}, {@code Not Restarting}, {@code Terminated} or {@code ""}. */
    String state();

    /** The task was killed: no restart. */
    record Killed() implements RestartDecision {
        @Override
        public String reason() {
            return "";
        }

        @Override
        public String state() {
            return "Killed";
        }
    }

    /** Restart after {@code delay} (already including jitter); never negative. */
    record Restarting(Duration delay, String reason) implements RestartDecision {
        public Restarting {
            Objects.requireNonNull(delay, "'delay' must not be null");
            Objects.requireNonNull(reason, "'reason' must not be null");
            if (delay.isNegative()) {
                delay = Duration.ZERO;
            }
        }

        @Override
        public String state() {
            return "Restarting";
        }
    }

    /** The policy does not allow another start: the task is dead and failed. */
    record NotRestarting(String reason) implements RestartDecision {
        public NotRestarting {
            Objects.requireNonNull(reason, "'reason' must not be null");
        }

        @Override
        public String state() {
            return "Not Restarting";
        }
    }

    /** The task finished successfully and need not run again: dead, not failed. */
    record Terminated(String reason) implements RestartDecision {
        public Terminated {
            Objects.requireNonNull(reason, "'reason' must not be null");
        }

        @Override
        public String state() {
            return "Terminated";
        }
    }

    /**
     * Nomad's unknown state {@code ""}: no failure was recorded (e.g. an exit the runner did not report). The task
     * runner treats it as a restart with no delay.
     */
    record NoDecision() implements RestartDecision {
        @Override
        public String reason() {
            return "";
        }

        @Override
        public String state() {
            return "";
        }
    }
}
