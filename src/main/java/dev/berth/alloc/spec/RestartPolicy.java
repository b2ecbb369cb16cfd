package dev.berth.alloc.spec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.berth.driver.GoDuration;

/**
 * A task group's {@code restart} block (Nomad's {@code RestartPolicy}).
 *
 * @param attempts restarts allowed within {@code interval}
 * @param interval the window in which attempts are counted
 * @param delay    the wait before a restart (plus up to 25 % jitter)
 * @param mode     {@code fail} or {@code delay}: what happens once the attempts are used up
 * @param exitRules Berth's rules by exit code and signal, which decide before the attempts do
 */
public record RestartPolicy(int attempts, Duration interval, Duration delay, String mode, ExitRules exitRules) {

    public static final String MODE_FAIL = "fail";
    public static final String MODE_DELAY = "delay";
    /** Nomad's {@code RestartPolicyMinInterval}. */
    public static final Duration MIN_INTERVAL = Duration.ofSeconds(5);

    public RestartPolicy {
        Objects.requireNonNull(interval, "'interval' must not be null");
        Objects.requireNonNull(delay, "'delay' must not be null");
        Objects.requireNonNull(mode, "'mode' must not be null");
        exitRules = exitRules == null ? ExitRules.NONE : exitRules;
    }

    /** Nomad's policy, without exit rules. */
    public RestartPolicy(int attempts, Duration interval, Duration delay, String mode) {
        this(attempts, interval, delay, mode, ExitRules.NONE);
    }

    /**
     * Nomad's defaults: {@code service}/{@code system} 2 / 30m / 15s / fail; {@code batch} (and {@code sysbatch})
     * 3 / 24h / 15s / fail. Any other type gets the service default.
     */
    public static RestartPolicy defaultFor(String jobType) {
        return switch (jobType == null ? "" : jobType) {
            case "batch", "sysbatch" -> new RestartPolicy(3, Duration.ofHours(24), Duration.ofSeconds(15), MODE_FAIL);
            default -> new RestartPolicy(2, Duration.ofMinutes(30), Duration.ofSeconds(15), MODE_FAIL);
        };
    }

    /**
     * One broken rule: the field it concerns ({@code mode}, {@code attempts}, {@code interval}, {@code delay}, or an exit
     * rule's key such as {@code RestartExitCodes}) and the message (Nomad's text for Nomad's fields).
     */
    public record Violation(String field, String message) {
    }

    /** Nomad's {@code RestartPolicy.Validate} rules, then the exit rules' own; empty when the policy is valid. */
    public List<Violation> validate() {
        List<Violation> problems = new ArrayList<>();
        if (!MODE_FAIL.equals(mode) && !MODE_DELAY.equals(mode)) {
            problems.add(new Violation("mode", "Unsupported restart mode: \"" + mode + "\""));
        }
        if (attempts < 0) {
            problems.add(new Violation("attempts", "Restart attempts must not be negative (got " + attempts + ")"));
        }
        if (attempts == 0 && !MODE_FAIL.equals(mode)) {
            problems.add(new Violation("attempts", "Restart policy \"" + mode + "\" with " + attempts + " attempts is ambiguous"));
        }
        if (interval.compareTo(MIN_INTERVAL) < 0) {
            problems.add(new Violation("interval", "Interval can not be less than " + GoDuration.format(MIN_INTERVAL)
                    + " (got " + GoDuration.format(interval) + ")"));
        }
        if (delay.isNegative()) {
            problems.add(new Violation("delay", "Delay must not be negative (got " + GoDuration.format(delay) + ")"));
        }
        if (attempts > 0 && delay.multipliedBy(attempts).compareTo(interval) > 0) {
            problems.add(new Violation("delay", "Nomad can't restart the TaskGroup " + attempts + " times in an interval of "
                    + GoDuration.format(interval) + " with a delay of " + GoDuration.format(delay)));
        }
        problems.addAll(exitRules.validate());
        return problems;
    }
}
