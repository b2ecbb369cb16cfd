package dev.berth.alloc.spec;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A task group's {@code volume} block (Nomad's {@code VolumeRequest}, a value of {@code TaskGroup.Volumes}). Berth runs
 * type {@code host}: {@code Source} names a host volume of the node.
 *
 * @param name     the block's label, which a task's {@code volume_mount} names
 * @param type     {@code host} ({@code csi} is refused)
 * @param source   the node's host volume
 * @param readOnly whether the group only reads it
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record VolumeSpec(
        @JsonProperty("Name") String name,
        @JsonProperty("Type") String type,
        @JsonProperty("Source") String source,
        @JsonProperty("ReadOnly") Boolean readOnly) {

    public static final String HOST = "host";

    public boolean readOnlyOrFalse() {
        return Boolean.TRUE.equals(readOnly);
    }
}
