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
        @JsonProperty("EphemeralDisk") Map<String, Object> ephemeralDisk,
        @JsonProperty("Services") List<ServiceSpec> services,
        @JsonProperty("Volumes") Map<String, VolumeSpec> volumes) {

    /** Without volumes. */
    public TaskGroupSpec(String name, Integer count, List<TaskSpec> tasks, RestartPolicySpec restartPolicy, List<NetworkSpec> networks,
                         Map<String, String> meta, Map<String, Object> ephemeralDisk, List<ServiceSpec> services) {
        this(name, count, tasks, restartPolicy, networks, meta, ephemeralDisk, services, null);
    }

    /** Without services. */
    public TaskGroupSpec(String name, Integer count, List<TaskSpec> tasks, RestartPolicySpec restartPolicy, List<NetworkSpec> networks,
                         Map<String, String> meta, Map<String, Object> ephemeralDisk) {
        this(name, count, tasks, restartPolicy, networks, meta, ephemeralDisk, null);
    }

    @com.fasterxml.jackson.annotation.JsonIgnore
    public List<ServiceSpec> servicesOrEmpty() {
        return services == null ? List.of() : services;
    }

    @com.fasterxml.jackson.annotation.JsonIgnore
    public Map<String, VolumeSpec> volumesOrEmpty() {
        return volumes == null ? Map.of() : volumes;
    }

    public TaskGroupSpec with(List<TaskSpec> newTasks, RestartPolicySpec policy, List<NetworkSpec> newNetworks) {
        return new TaskGroupSpec(name, count, newTasks, policy, newNetworks, meta, ephemeralDisk, services, volumes);
    }
}
