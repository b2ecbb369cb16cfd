package dev.berth.alloc.spec;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A task's {@code volume_mount} block (Nomad's {@code VolumeMount}, an element of {@code Task.VolumeMounts}).
 *
 * @param volume          the group's {@code volume} it mounts
 * @param destination     where the task sees it
 * @param readOnly        whether the task only reads it (a read-only volume is read-only whatever this says)
 * @param propagationMode {@code private} (default), {@code host-to-task} or {@code bidirectional}
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record VolumeMountSpec(
        @JsonProperty("Volume") String volume,
        @JsonProperty("Destination") String destination,
        @JsonProperty("ReadOnly") Boolean readOnly,
        @JsonProperty("PropagationMode") String propagationMode) {

    public boolean readOnlyOrFalse() {
        return Boolean.TRUE.equals(readOnly);
    }
}
