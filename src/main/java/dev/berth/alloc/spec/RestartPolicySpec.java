package dev.berth.alloc.spec;

import java.time.Duration;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

/** Nomad's {@code RestartPolicy}; Interval and Delay are nanoseconds. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record RestartPolicySpec(
        @JsonProperty("Attempts") Integer attempts,
        @JsonProperty("Interval") Long interval,
        @JsonProperty("Delay") Long delay,
        @JsonProperty("Mode") String mode) {

    public static RestartPolicySpec defaultFor(String jobType) {
        boolean batch = "batch".equals(jobType) || "sysbatch".equals(jobType);
        return batch
                ? new RestartPolicySpec(3, Duration.ofHours(24).toNanos(), Duration.ofSeconds(15).toNanos(), "fail")
                : new RestartPolicySpec(2, Duration.ofMinutes(30).toNanos(), Duration.ofSeconds(15).toNanos(), "fail");
    }

    /** Fills the omitted fields from {@code base}. */
    public RestartPolicySpec mergedOver(RestartPolicySpec base) {
        return new RestartPolicySpec(attempts != null ? attempts : base.attempts, interval != null ? interval : base.interval,
                delay != null ? delay : base.delay, mode != null ? mode : base.mode);
    }

    /** The tracker's policy (after defaults every field is set). */
    public dev.berth.alloc.spec.RestartPolicy toPolicy() {
        return new dev.berth.alloc.spec.RestartPolicy(attempts == null ? 0 : attempts, intervalDuration(), delayDuration(),
                mode == null ? "" : mode);
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
