package dev.berth.alloc.task;

import java.time.Duration;
import java.util.Objects;

/**
 * What {@link RestartTracker#decide()} decided after a task stopped. {@link #state()} is Nomad's state string
 * (also the task event type for {@code Restarting}, {@code Not Restarting} and {@code Killed}); {@link #rule()} is the
 * rule of the restart policy that decided.
 */
public sealed interface RestartDecision {

    /** The rule that decided: {@link RestartRule#POLICY} unless one of Berth's exit rules did. */
    RestartRule rule();

    /** Nomad's {@code RestartReason} ({@code ""} when there is none). */
    String reason();

    /** Nomad's state string: {@code Killed}, {@code Restarting}, {@code Not Restarting}, {@code Terminated} or {@code ""}. */
    String state();

    /** The task was killed: no restart. */
    record Killed() implements RestartDecision {
        @Override
        public RestartRule rule() {
            return RestartRule.POLICY;
        }

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
    record Restarting(Duration delay, String reason, RestartRule rule) implements RestartDecision {
        public Restarting {
            Objects.requireNonNull(delay, "'delay' must not be null");
            Objects.requireNonNull(reason, "'reason' must not be null");
            Objects.requireNonNull(rule, "'rule' must not be null");
            if (delay.isNegative()) {
                delay = Duration.ZERO;
            }
        }

        /** A restart by Nomad's rules. */
        public Restarting(Duration delay, String reason) {
            this(delay, reason, RestartRule.POLICY);
        }

        @Override
        public String state() {
            return "Restarting";
        }
    }

    /** The policy does not allow another start: the task is dead and failed. */
    record NotRestarting(String reason, RestartRule rule) implements RestartDecision {
        public NotRestarting {
            Objects.requireNonNull(reason, "'reason' must not be null");
            Objects.requireNonNull(rule, "'rule' must not be null");
        }

        /** Decided by Nomad's rules. */
        public NotRestarting(String reason) {
            this(reason, RestartRule.POLICY);
        }

        @Override
        public String state() {
            return "Not Restarting";
        }
    }

    /** The task need not run again and did not fail (a successful exit, or one an exit rule ends): dead, not failed. */
    record Terminated(String reason, RestartRule rule) implements RestartDecision {
        public Terminated {
            Objects.requireNonNull(reason, "'reason' must not be null");
            Objects.requireNonNull(rule, "'rule' must not be null");
        }

        /** Decided by Nomad's rules. */
        public Terminated(String reason) {
            this(reason, RestartRule.POLICY);
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
        public RestartRule rule() {
            return RestartRule.POLICY;
        }

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
