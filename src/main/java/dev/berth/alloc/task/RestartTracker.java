package dev.berth.alloc.task;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.random.RandomGenerator;

import dev.berth.alloc.spec.ExitRules;
import dev.berth.alloc.spec.RestartPolicy;
import dev.berth.driver.DriverException;
import dev.berth.driver.ExitResult;
import dev.berth.driver.GoDuration;

/**
 * Decides whether a stopped task restarts, exactly as Nomad's {@code restarts.RestartTracker}: the runner reports what
 * happened with the {@code set…} inputs, then asks {@link #decide()}, which also clears the inputs (Nomad's
 * {@code GetState}). A killed task never restarts; a user-requested restart is immediate and never counted; with
 * {@code attempts = 0} nothing restarts; otherwise each failure counts within {@code interval}, and past
 * {@code attempts} the task fails ({@code mode = fail}) or waits for the interval's end ({@code mode = delay}). Before
 * the attempts, Berth's exit rules ({@link ExitRules}) may decide an exit whose code or signal they list; the decision
 * names the rule that applied ({@link RestartDecision#rule()}).
 * One instance per task runner. Thread-safe; time comes from the injected {@link Clock} and jitter from the injected
 * {@link RandomGenerator}, so every delay is exactly predictable in tests.
 */
public final class RestartTracker {

    public static final String REASON_NO_RESTARTS_ALLOWED = "Policy allows no restarts";
    public static final String REASON_UNRECOVERABLE = "Error was unrecoverable";
    public static final String REASON_WITHIN_POLICY = "Restart within policy";
    public static final String REASON_DELAY = "Exceeded allowed attempts, applying a delay";
    public static final String REASON_TERMINATED = "Restart unnecessary as task terminated successfully";
    /** The jitter added to the delay: up to 25 %. */
    static final double JITTER = 0.25;

    private final ReentrantLock lock = new ReentrantLock(); // virtual-thread friendly; guards every field below
    private final Clock clock;
    private final RandomGenerator random;
    private final boolean onSuccess;
    private RestartPolicy policy;
    private Instant startTime;
    private int count;
    private Throwable startErr;
    private boolean startErrRecoverable;
    private ExitResult exitResult;
    private boolean restartTriggered;
    private boolean failure;
    private boolean killed;

    /**
     * @param policy        the task group's restart policy
     * @param jobType       {@code service}, {@code batch}, {@code system}, {@code sysbatch}
     * @param lifecycleHook the task's lifecycle hook ({@code prestart}, {@code poststart}, {@code poststop}) or null
     * @param sidecar       the task's {@code lifecycle.sidecar}
     */
    public RestartTracker(RestartPolicy policy, String jobType, String lifecycleHook, boolean sidecar, Clock clock,
            RandomGenerator random) {
        this.policy = Objects.requireNonNull(policy, "'policy' must not be null");
        this.clock = Objects.requireNonNull(clock, "'clock' must not be null");
        this.random = Objects.requireNonNull(random, "'random' must not be null");
        this.onSuccess = onSuccess(jobType, lifecycleHook, sidecar);
        this.startTime = clock.instant();
    }

    /**
     * Whether a task that exited successfully is restarted: not for batch/sysbatch jobs; prestart and poststart tasks
     * only when they are sidecars; poststop tasks never.
     */
    public static boolean onSuccess(String jobType, String lifecycleHook, boolean sidecar) {
        boolean restart = !"batch".equals(jobType) && !"sysbatch".equals(jobType);
        if ("prestart".equals(lifecycleHook) || "poststart".equals(lifecycleHook)) {
            restart = sidecar;
        }
        if ("poststop".equals(lifecycleHook)) {
            restart = false;
        }
        return restart;
    }

    /** Replaces the policy (a job update); the attempt count and interval start are kept. */
    public void setPolicy(RestartPolicy policy) {
        Objects.requireNonNull(policy, "'policy' must not be null");
        withLock(() -> this.policy = policy);
    }

    /**
     * The task failed to start. It is recoverable when the error, or the first {@link DriverException} in its cause
     * chain, says so; anything else is unrecoverable (Nomad's {@code IsRecoverable}).
     */
    public RestartTracker setStartError(Throwable error) {
        return setStartError(error, isRecoverable(error));
    }

    /** The task failed to start, with its recoverability given explicitly. */
    public RestartTracker setStartError(Throwable error, boolean recoverable) {
        withLock(() -> {
            startErr = Objects.requireNonNull(error, "'error' must not be null");
            startErrRecoverable = recoverable;
            failure = true;
        });
        return this;
    }

    /** The task exited. Counts as a failure for the attempt logic (a successful exit may still end as Terminated). */
    public RestartTracker setExitResult(ExitResult result) {
        withLock(() -> {
            exitResult = Objects.requireNonNull(result, "'result' must not be null");
            failure = true;
        });
        return this;
    }

    /** A restart was requested: by the user ({@code failure=false}, never counted) or because of a failure (e.g. a check). */
    public RestartTracker setRestartTriggered(boolean failure) {
        withLock(() -> {
            if (failure) {
                this.failure = true;
            } else {
                restartTriggered = true;
            }
        });
        return this;
    }

    /** The task was killed on purpose: it must not restart. */
    public RestartTracker setKilled() {
        withLock(() -> killed = true);
        return this;
    }

    /**
     * Continues from counters persisted before an agent restart, so a restart of the agent neither resets nor extends
     * the policy's budget. Null (nothing persisted) changes nothing; a null interval start keeps the current one.
     */
    public RestartTracker continueFrom(Counters restored) {
        if (restored == null) {
            return this;
        }
        withLock(() -> {
            count = Math.max(0, restored.count());
            if (restored.intervalStart() != null) {
                startTime = restored.intervalStart();
            }
        });
        return this;
    }

    /** The counters to persist: restarts counted in the current interval and that interval's start. */
    public Counters counters() {
        lock.lock();
        try {
            return new Counters(count, startTime);
        } finally {
            lock.unlock();
        }
    }

    /** Decides, in Nomad's order, then clears every input. */
    public RestartDecision decide() {
        lock.lock();
        try {
            return decision();
        } finally {
            startErr = null;
            startErrRecoverable = false;
            exitResult = null;
            restartTriggered = false;
            failure = false;
            killed = false;
            lock.unlock();
        }
    }

    private RestartDecision decision() {
        if (killed) {
            return new RestartDecision.Killed();
        }
        if (restartTriggered) {
            return new RestartDecision.Restarting(Duration.ZERO, "");
        }
        // A known exit status (no driver error) listed in an exit rule is decided by that rule alone.
        if (startErr == null && exitResult != null && exitResult.err() == null) {
            Optional<ExitRules.Match> match = policy.exitRules().match(exitResult.exitCode(), exitResult.signal());
            if (match.isPresent()) {
                return byExitRule(match.get());
            }
        }
        if (policy.attempts() == 0) {
            if (!onSuccess && exitResult != null && exitResult.successful()) {
                return new RestartDecision.Terminated(REASON_NO_RESTARTS_ALLOWED);
            }
            return new RestartDecision.NotRestarting(REASON_NO_RESTARTS_ALLOWED);
        }
        // Roll the interval over before counting (Nomad e2d793cfd9: counting first was off by one).
        Instant now = clock.instant();
        Instant end = startTime.plus(policy.interval());
        if (now.isAfter(end)) {
            count = 0;
            startTime = now;
        }
        count++;
        if (!failure) {
            return new RestartDecision.NoDecision();
        }
        if (startErr != null) {
            if (!startErrRecoverable) {
                return new RestartDecision.NotRestarting(REASON_UNRECOVERABLE);
            }
        } else if (exitResult != null && exitResult.successful() && !onSuccess) {
            return new RestartDecision.Terminated(REASON_TERMINATED);
        }
        if (count > policy.attempts()) {
            if (RestartPolicy.MODE_FAIL.equals(policy.mode())) {
                return new RestartDecision.NotRestarting("Exceeded allowed attempts " + policy.attempts() + " in interval "
                        + GoDuration.format(policy.interval()) + " and mode is \"fail\"");
            }
            // Wait out the rest of the interval, without jitter.
            return new RestartDecision.Restarting(Duration.between(now, startTime.plus(policy.interval())), REASON_DELAY);
        }
        return new RestartDecision.Restarting(jitteredDelay(), REASON_WITHIN_POLICY);
    }

    /**
     * An exit rule's decision: a {@code Restart…} rule restarts after the policy's jittered delay and leaves the count
     * and the interval alone; a {@code NoRestart…} rule ends the task, failed unless the exit was successful.
     */
    private RestartDecision byExitRule(ExitRules.Match match) {
        RestartRule.ExitRule rule = RestartRule.ExitRule.of(match);
        String exit = match.exit();
        if (match.restart()) {
            return new RestartDecision.Restarting(jitteredDelay(), exit + " is listed in " + match.key()
                    + ": restart, not counted", rule);
        }
        String reason = exit + " is listed in " + match.key() + ": no restart";
        return exitResult.successful() ? new RestartDecision.Terminated(reason, rule) : new RestartDecision.NotRestarting(reason, rule);
    }

    /** {@code delay + random[0, delay) * 0.25}; a zero delay counts as 1 ns (Nomad e91abac0f6). */
    private Duration jitteredDelay() {
        long d = Math.max(1, policy.delay().toNanos());
        long jitter = (long) (random.nextLong(d) * JITTER);
        return Duration.ofNanos(d + jitter);
    }

    private static boolean isRecoverable(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof DriverException de) {
                return de.recoverable();
            }
        }
        return false;
    }

    /** Persistable counters: the attempt count and the interval start, so a restore continues the same interval. */
    public record Counters(int count, Instant intervalStart) {
    }

    private void withLock(Runnable action) {
        lock.lock();
        try {
            action.run();
        } finally {
            lock.unlock();
        }
    }
}
