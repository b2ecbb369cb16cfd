package dev.berth.alloc.spec;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/** One task of a task group. {@code KillTimeout} is in nanoseconds, as Nomad writes durations. */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TaskSpec(
        @JsonProperty("Name") String name,
        @JsonProperty("Driver") String driver,
        @JsonProperty("Config") Map<String, Object> config,
        @JsonProperty("Env") Map<String, String> env,
        @JsonProperty("Resources") ResourcesSpec resources,
        @JsonProperty("RestartPolicy") RestartPolicySpec restartPolicy,
        @JsonProperty("KillTimeout") Long killTimeout,
        @JsonProperty("KillSignal") String killSignal,
        @JsonProperty("Leader") Boolean leader,
        @JsonProperty("Lifecycle") LifecycleSpec lifecycle,
        @JsonProperty("Meta") Map<String, String> meta,
        @JsonProperty("LogConfig") Map<String, Object> logConfig,
        @JsonProperty("DispatchPayload") DispatchPayload dispatchPayload,
        @JsonProperty("Services") List<ServiceSpec> services,
        @JsonProperty("Artifacts") List<TaskArtifactSpec> artifacts,
        @JsonProperty("VolumeMounts") List<VolumeMountSpec> volumeMounts,
        @JsonProperty("Templates") List<TemplateSpec> templates) {

    /** Nomad's {@code dispatch_payload}: the file under {@code local/} that receives a dispatched job's payload. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record DispatchPayload(@JsonProperty("File") String file) {
    }

    /** A task without a dispatch payload file or services. */
    public TaskSpec(String name, String driver, Map<String, Object> config, Map<String, String> env, ResourcesSpec resources,
                    RestartPolicySpec restartPolicy, Long killTimeout, String killSignal, Boolean leader, LifecycleSpec lifecycle,
                    Map<String, String> meta, Map<String, Object> logConfig) {
        this(name, driver, config, env, resources, restartPolicy, killTimeout, killSignal, leader, lifecycle, meta, logConfig, null);
    }

    /** A task without services. */
    public TaskSpec(String name, String driver, Map<String, Object> config, Map<String, String> env, ResourcesSpec resources,
                    RestartPolicySpec restartPolicy, Long killTimeout, String killSignal, Boolean leader, LifecycleSpec lifecycle,
                    Map<String, String> meta, Map<String, Object> logConfig, DispatchPayload dispatchPayload) {
        this(name, driver, config, env, resources, restartPolicy, killTimeout, killSignal, leader, lifecycle, meta, logConfig,
                dispatchPayload, null);
    }

    /** A task without artifacts or volume mounts. */
    public TaskSpec(String name, String driver, Map<String, Object> config, Map<String, String> env, ResourcesSpec resources,
                    RestartPolicySpec restartPolicy, Long killTimeout, String killSignal, Boolean leader, LifecycleSpec lifecycle,
                    Map<String, String> meta, Map<String, Object> logConfig, DispatchPayload dispatchPayload,
                    List<ServiceSpec> services) {
        this(name, driver, config, env, resources, restartPolicy, killTimeout, killSignal, leader, lifecycle, meta, logConfig,
                dispatchPayload, services, null, null);
    }

    /** A task without templates. */
    public TaskSpec(String name, String driver, Map<String, Object> config, Map<String, String> env, ResourcesSpec resources,
                    RestartPolicySpec restartPolicy, Long killTimeout, String killSignal, Boolean leader, LifecycleSpec lifecycle,
                    Map<String, String> meta, Map<String, Object> logConfig, DispatchPayload dispatchPayload,
                    List<ServiceSpec> services, List<TaskArtifactSpec> artifacts, List<VolumeMountSpec> volumeMounts) {
        this(name, driver, config, env, resources, restartPolicy, killTimeout, killSignal, leader, lifecycle, meta, logConfig,
                dispatchPayload, services, artifacts, volumeMounts, null);
    }

    @JsonIgnore
    public List<TemplateSpec> templatesOrEmpty() {
        return templates == null ? List.of() : templates;
    }

    @JsonIgnore
    public List<TaskArtifactSpec> artifactsOrEmpty() {
        return artifacts == null ? List.of() : artifacts;
    }

    @JsonIgnore
    public List<VolumeMountSpec> volumeMountsOrEmpty() {
        return volumeMounts == null ? List.of() : volumeMounts;
    }

    @JsonIgnore
    public List<ServiceSpec> servicesOrEmpty() {
        return services == null ? List.of() : services;
    }

    @JsonIgnore
    public boolean isLeader() {
        return Boolean.TRUE.equals(leader);
    }

    @JsonIgnore
    public Duration killTimeoutDuration() {
        return killTimeout == null ? Duration.ofSeconds(5) : Duration.ofNanos(killTimeout);
    }

    /** prestart, poststart or poststop; null for a main task. */
    @JsonIgnore
    public String hook() {
        return lifecycle == null || lifecycle.hook() == null || lifecycle.hook().isEmpty() ? null : lifecycle.hook();
    }

    @JsonIgnore
    public boolean sidecar() {
        return lifecycle != null && Boolean.TRUE.equals(lifecycle.sidecar());
    }

    @JsonIgnore
    public boolean isMain() {
        return hook() == null;
    }

    @JsonIgnore
    public boolean isPoststop() {
        return "poststop".equals(hook());
    }

    @JsonIgnore
    public int cpu() {
        return resources == null || resources.cpu() == null ? 0 : resources.cpu();
    }

    @JsonIgnore
    public int memoryMb() {
        return resources == null || resources.memoryMb() == null ? 0 : resources.memoryMb();
    }

    @JsonIgnore
    public int memoryMaxMb() {
        return resources == null || resources.memoryMaxMb() == null ? 0 : resources.memoryMaxMb();
    }

    /** This task with other resources; every other field kept. */
    public TaskSpec withResources(ResourcesSpec res) {
        return new TaskSpec(name, driver, config, env, res, restartPolicy, killTimeout, killSignal, leader, lifecycle, meta, logConfig,
                dispatchPayload, services, artifacts, volumeMounts, templates);
    }

    public TaskSpec withDefaults(RestartPolicySpec policy, long killTimeoutNs, ResourcesSpec res) {
        return new TaskSpec(name, driver, config, env, res, policy, killTimeoutNs, killSignal, leader, lifecycle, meta, logConfig,
                dispatchPayload, services, artifacts, volumeMounts, templates);
    }
}
