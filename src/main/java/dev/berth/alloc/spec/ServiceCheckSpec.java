package dev.berth.alloc.spec;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A service's {@code Check} as Nomad's job JSON carries it ({@code Interval}, {@code Timeout} and
 * {@code CheckRestart.Grace} in nanoseconds). Types: {@code http}, {@code tcp}, {@code grpc} and {@code script} (the
 * last two are Berth additions to Nomad's native checks). {@code SuccessBeforePassing} and
 * {@code FailuresBeforeCritical} keep Consul's meaning (consecutive results before the status flips).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ServiceCheckSpec(
        @JsonProperty("Name") String name,
        @JsonProperty("Type") String type,
        @JsonProperty("Command") String command,
        @JsonProperty("Args") List<String> args,
        @JsonProperty("Path") String path,
        @JsonProperty("Protocol") String protocol,
        @JsonProperty("PortLabel") String portLabel,
        @JsonProperty("AddressMode") String addressMode,
        @JsonProperty("Interval") Long interval,
        @JsonProperty("Timeout") Long timeout,
        @JsonProperty("InitialStatus") String initialStatus,
        @JsonProperty("Method") String method,
        @JsonProperty("Header") Map<String, List<String>> header,
        @JsonProperty("Body") String body,
        @JsonProperty("CheckRestart") CheckRestartSpec checkRestart,
        @JsonProperty("GRPCService") String grpcService,
        @JsonProperty("GRPCUseTLS") Boolean grpcUseTls,
        @JsonProperty("TLSSkipVerify") Boolean tlsSkipVerify,
        @JsonProperty("TaskName") String taskName,
        @JsonProperty("SuccessBeforePassing") Integer successBeforePassing,
        @JsonProperty("FailuresBeforeCritical") Integer failuresBeforeCritical,
        @JsonProperty("OnUpdate") String onUpdate) {

    @JsonIgnore
    public Duration intervalDuration() {
        return Duration.ofNanos(interval == null ? 0 : interval);
    }

    @JsonIgnore
    public Duration timeoutDuration() {
        return Duration.ofNanos(timeout == null ? 0 : timeout);
    }

    @JsonIgnore
    public int successBeforePassingOrZero() {
        return successBeforePassing == null ? 0 : successBeforePassing;
    }

    @JsonIgnore
    public int failuresBeforeCriticalOrZero() {
        return failuresBeforeCritical == null ? 0 : failuresBeforeCritical;
    }

    /** Nomad's {@code TriggersRestarts}: a {@code CheckRestart} with a positive {@code Limit}. */
    @JsonIgnore
    public boolean triggersRestarts() {
        return checkRestart != null && checkRestart.limit() != null && checkRestart.limit() > 0;
    }

    /**
     * @param limit          unhealthy results in a row (interval × (limit − 1) of unhealthiness) before the restart
     * @param grace          nanoseconds after the check is armed during which results are ignored
     * @param ignoreWarnings Consul's; a Nomad check has no warning state
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record CheckRestartSpec(
            @JsonProperty("Limit") Integer limit,
            @JsonProperty("Grace") Long grace,
            @JsonProperty("IgnoreWarnings") Boolean ignoreWarnings) {

        @JsonIgnore
        public Duration graceDuration() {
            return Duration.ofNanos(grace == null ? 0 : grace);
        }
    }
}
