package dev.berth.alloc.spec;

import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Nomad's {@code RestartPolicy}; Interval and Delay are nanoseconds. The four exit-rule lists are Berth's keys
 * ({@link ExitRules}); absent, they are omitted when written back.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RestartPolicySpec(
        @JsonProperty("Attempts") Integer attempts,
        @JsonProperty("Interval") Long interval,
        @JsonProperty("Delay") Long delay,
        @JsonProperty("Mode") String mode,
        @JsonProperty(ExitRules.NO_RESTART_EXIT_CODES) @JsonInclude(JsonInclude.Include.NON_NULL) List<Integer> noRestartExitCodes,
        @JsonProperty(ExitRules.RESTART_EXIT_CODES) @JsonInclude(JsonInclude.Include.NON_NULL) List<Integer> restartExitCodes,
        @JsonProperty(ExitRules.NO_RESTART_SIGNALS) @JsonInclude(JsonInclude.Include.NON_NULL) List<String> noRestartSignals,
        @JsonProperty(ExitRules.RESTART_SIGNALS) @JsonInclude(JsonInclude.Include.NON_NULL) List<String> restartSignals) {

    /** Nomad's policy without exit rules. */
    public RestartPolicySpec(Integer attempts, Long interval, Long delay, String mode) {
        this(attempts, interval, delay, mode, null, null, null, null);
    }

    public static RestartPolicySpec defaultFor(String jobType) {
        boolean batch = "batch".equals(jobType) || "sysbatch".equals(jobType);
        return batch
                ? new RestartPolicySpec(3, Duration.ofHours(24).toNanos(), Duration.ofSeconds(15).toNanos(), "fail")
                : new RestartPolicySpec(2, Duration.ofMinutes(30).toNanos(), Duration.ofSeconds(15).toNanos(), "fail");
    }

    /** Fills the omitted fields from {@code base} (an exit-rule list is taken whole, never merged with the base's). */
    public RestartPolicySpec mergedOver(RestartPolicySpec base) {
        return new RestartPolicySpec(attempts != null ? attempts : base.attempts, interval != null ? interval : base.interval,
                delay != null ? delay : base.delay, mode != null ? mode : base.mode,
                noRestartExitCodes != null ? noRestartExitCodes : base.noRestartExitCodes,
                restartExitCodes != null ? restartExitCodes : base.restartExitCodes,
                noRestartSignals != null ? noRestartSignals : base.noRestartSignals,
                restartSignals != null ? restartSignals : base.restartSignals);
    }

    /** The tracker's policy (after defaults every Nomad field is set). */
    public RestartPolicy toPolicy() {
        return new RestartPolicy(attempts == null ? 0 : attempts, intervalDuration(), delayDuration(), mode == null ? "" : mode,
                new ExitRules(noRestartExitCodes, restartExitCodes, noRestartSignals, restartSignals));
    }

    @JsonIgnore
    public Duration intervalDuration() {
        return Duration.ofNanos(interval == null ? 0 : interval);
    }

    @JsonIgnore
    public Duration delayDuration() {
        return Duration.ofNanos(delay == null ? 0 : delay);
    }
}
