package dev.berth.alloc.task;

import java.time.Duration;
import java.util.Objects;

/**
 * What the restart policy decided after an exit or start error (Nomad's {@code GetState()} pair plus its reason).
 *
 * @param outcome what happens next
 * @param delay   how long the runner waits before the next start (exactly this; seed 004)
 * @param reason  Nomad's restart reason text
 */
public record RestartDecision(Outcome outcome, Duration delay, String reason) {

    public static final String REASON_WITHIN_POLICY = "Restart within policy";

    public enum Outcome {
        /** The task was killed: emit Killed, dead. */
        KILLED,
        /** Restart after {@link #delay}. */
        RESTARTING,
        /** Policy exhausted or unrecoverable: dead and failed. */
        NOT_RESTARTING,
        /** Finished successfully and should not restart: dead, not failed. */
        TERMINATED
    }

    public RestartDecision {
        Objects.requireNonNull(outcome, "'outcome' must not be null");
        delay = delay == null ? Duration.ZERO : delay;
        reason = reason == null ? "" : reason;
    }
}
