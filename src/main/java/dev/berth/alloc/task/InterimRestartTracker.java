package dev.berth.alloc.task;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.random.RandomGenerator;

import dev.berth.alloc.spec.RestartPolicySpec;
import dev.berth.driver.ExitResult;

/**
 * Nomad's restart tracker (§4), kept here until the {@code drivers} branch's {@code RestartTracker} lands; the runner only
 * sees {@link RestartTracking}, so swapping it is one factory line. Time and jitter are injected so tests assert exact delays.
 */
public final class InterimRestartTracker implements RestartTracking {

    private final RestartPolicySpec policy;
    private final boolean onSuccess;
    private final Clock clock;
    private final RandomGenerator random;

    // all guarded by this
    private int count;
    private Instant intervalStart;
    private Exception startError;
    private boolean startErrorRecoverable;
    private ExitResult exitResult;
    private boolean restartTriggered;
    private boolean failure;
    private boolean killed;

    public InterimRestartTracker(RestartPolicySpec policy, boolean onSuccess, Clock clock, RandomGenerator random, Counters restored) {
        this.policy = policy;
        this.onSuccess = onSuccess;
        this.clock = clock;
        this.random = random;
        this.count = restored == null ? 0 : restored.count();
        this.intervalStart = restored == null || restored.intervalStart() == null ? clock.instant() : restored.intervalStart();
    }

    /** Nomad's onSuccess: false for batch jobs and poststop tasks, {@code sidecar} for prestart/poststart tasks. */
    public static boolean restartOnSuccess(boolean batchJob, String lifecycleHook, boolean sidecar) {
        if ("poststop".equals(lifecycleHook)) {
            return false;
        }
        if (lifecycleHook != null) {
            return sidecar;
        }
        return !batchJob;
    }

    /** Nomad's RestartPolicy.Validate; returns the first problem or null. */
    public static String validate(RestartPolicySpec p) {
        if (!"delay".equals(p.mode()) && !"fail".equals(p.mode())) {
            return "Unsupported restart mode: \"" + p.mode() + "\"";
        }
        if (p.attempts() == 0 && !"fail".equals(p.mode())) {
            return "Restart policy \"" + p.mode() + "\" with " + p.attempts() + " attempts is ambiguous";
        }
        if (p.attempts() < 0) {
            return "Attempts must be >= 0, was " + p.attempts();
        }
        if (p.intervalDuration().compareTo(Duration.ofSeconds(5)) < 0) {
            return "Interval can not be less than 5s (got " + GoDuration.format(p.intervalDuration()) + ")";
        }
        if (p.delayDuration().isNegative()) {
            return "Delay must be >= 0";
        }
        if (p.delayDuration().multipliedBy(p.attempts()).compareTo(p.intervalDuration()) > 0) {
            return "Nomad can't restart the TaskGroup " + p.attempts() + " times in an interval of "
                    + GoDuration.format(p.intervalDuration()) + " with a delay of " + GoDuration.format(p.delayDuration());
        }
        return null;
    }

    @Override
    public synchronized void setStartError(Exception error, boolean recoverable) {
        this.startError = error;
        this.startErrorRecoverable = recoverable;
        this.failure = true;
    }

    @Override
    public synchronized void setExitResult(ExitResult result) {
        this.exitResult = result;
        this.failure = true;
    }

    @Override
    public synchronized void setRestartTriggered(boolean failure) {
        if (failure) {
            this.failure = true;
        } else {
            this.restartTriggered = true;
        }
    }

    @Override
    public synchronized void setKilled() {
        this.killed = true;
    }

    @Override
    public synchronized Counters counters() {
        return new Counters(count, intervalStart);
    }

    @Override
    public synchronized RestartDecision decide() {
        try {
            return decideLocked();
        } finally {
            startError = null;
            exitResult = null;
            restartTriggered = false;
            failure = false;
            killed = false;
        }
    }

    private RestartDecision decideLocked() {
        if (killed) {
            return new RestartDecision(RestartDecision.Outcome.KILLED, Duration.ZERO, "");
        }
        if (restartTriggered) {
            return new RestartDecision(RestartDecision.Outcome.RESTARTING, Duration.ZERO, "");
        }
        boolean successfulExit = exitResult != null && exitResult.successful();
        if (policy.attempts() == 0) {
            if (!onSuccess && successfulExit) {
                return new RestartDecision(RestartDecision.Outcome.TERMINATED, Duration.ZERO, "Policy allows no restarts");
            }
            return new RestartDecision(RestartDecision.Outcome.NOT_RESTARTING, Duration.ZERO, "Policy allows no restarts");
        }
        Instant now = clock.instant();
        // Roll the interval over before counting (fix of e2d793cfd9).
        if (now.isAfter(intervalStart.plus(policy.intervalDuration()))) {
            count = 0;
            intervalStart = now;
        }
        count++;
        if (!failure) {
            return new RestartDecision(RestartDecision.Outcome.RESTARTING, Duration.ZERO, "");
        }
        if (startError != null && !startErrorRecoverable) {
            return new RestartDecision(RestartDecision.Outcome.NOT_RESTARTING, Duration.ZERO, "Error was unrecoverable");
        }
        if (startError == null && successfulExit && !onSuccess) {
            return new RestartDecision(RestartDecision.Outcome.TERMINATED, Duration.ZERO,
                    "Restart unnecessary as task terminated successfully");
        }
        if (count > policy.attempts()) {
            if ("fail".equals(policy.mode())) {
                return new RestartDecision(RestartDecision.Outcome.NOT_RESTARTING, Duration.ZERO,
                        "Exceeded allowed attempts " + policy.attempts() + " in interval "
                                + GoDuration.format(policy.intervalDuration()) + " and mode is \"fail\"");
            }
            Duration left = Duration.between(now, intervalStart.plus(policy.intervalDuration()));
            return new RestartDecision(RestartDecision.Outcome.RESTARTING, left, "Exceeded allowed attempts, applying a delay");
        }
        long delayNs = policy.delayDuration().toNanos();
        if (delayNs == 0) {
            return new RestartDecision(RestartDecision.Outcome.RESTARTING, Duration.ofNanos(1), RestartDecision.REASON_WITHIN_POLICY);
        }
        long jitter = (long) (random.nextLong(delayNs) * 0.25);
        return new RestartDecision(RestartDecision.Outcome.RESTARTING, Duration.ofNanos(delayNs + jitter),
                RestartDecision.REASON_WITHIN_POLICY);
    }
}
