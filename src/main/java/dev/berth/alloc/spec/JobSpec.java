package dev.berth.alloc.spec;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The job embedded in an allocation. {@code Type} is service, batch, system or sysbatch. {@code Payload} is a dispatched
 * job's input (base64), written into a task's {@code local/} by the {@code dispatch_payload} hook.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobSpec(
        @JsonProperty("ID") String id,
        @JsonProperty("Name") String name,
        @JsonProperty("Type") String type,
        @JsonProperty("Namespace") String namespace,
        @JsonProperty("Region") String region,
        @JsonProperty("ParentID") String parentId,
        @JsonProperty("Meta") Map<String, String> meta,
        @JsonProperty("TaskGroups") List<TaskGroupSpec> taskGroups,
        @JsonProperty("Payload") String payload) {

    /** A job without a dispatch payload. */
    public JobSpec(String id, String name, String type, String namespace, String region, String parentId, Map<String, String> meta,
                   List<TaskGroupSpec> taskGroups) {
        this(id, name, type, namespace, region, parentId, meta, taskGroups, null);
    }

    public static final List<String> TYPES = List.of("service", "batch", "system", "sysbatch");

    @JsonIgnore
    public boolean batchLike() {
        return "batch".equals(type) || "sysbatch".equals(type);
    }

    public JobSpec withTaskGroups(List<TaskGroupSpec> groups) {
        return new JobSpec(id, name, type, namespace, region, parentId, meta, groups, payload);
    }
}
