package dev.berth.alloc.spec;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/** A job's task group. */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TaskGroupSpec(
        @JsonProperty("Name") String name,
        @JsonProperty("Count") Integer count,
        @JsonProperty("Tasks") List<TaskSpec> tasks,
        @JsonProperty("RestartPolicy") RestartPolicySpec restartPolicy,
        @JsonProperty("Networks") List<NetworkSpec> networks,
        @JsonProperty("Meta") Map<String, String> meta,
        @JsonProperty("EphemeralDisk") Map<String, Object> ephemeralDisk) {

    public TaskGroupSpec with(List<TaskSpec> newTasks, RestartPolicySpec policy, List<NetworkSpec> newNetworks) {
        return new TaskGroupSpec(name, count, newTasks, policy, newNetworks, meta, ephemeralDisk);
    }
}
