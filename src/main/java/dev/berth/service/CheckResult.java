package dev.berth.service;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Nomad's {@code CheckQueryResult}: one check's latest result as {@code GET /v1/client/allocation/{id}/checks} serves it
 * (keyed by {@code ID}). {@code Status} is {@code success}, {@code failure} or {@code pending}; {@code Timestamp} is Unix
 * seconds; {@code StatusCode} (HTTP status, a script's exit code) and {@code Task} are omitted when empty, as Nomad does.
 */
public record CheckResult(
        @JsonProperty("ID") String id,
        @JsonProperty("Mode") String mode,
        @JsonProperty("Status") String status,
        @JsonProperty("StatusCode") @JsonInclude(JsonInclude.Include.NON_DEFAULT) int statusCode,
        @JsonProperty("Output") String output,
        @JsonProperty("Timestamp") long timestamp,
        @JsonProperty("Group") String group,
        @JsonProperty("Task") @JsonInclude(JsonInclude.Include.NON_EMPTY) String task,
        @JsonProperty("Service") String service,
        @JsonProperty("Check") String check) {

    public static final String SUCCESS = "success";
    public static final String FAILURE = "failure";
    public static final String PENDING = "pending";
}
