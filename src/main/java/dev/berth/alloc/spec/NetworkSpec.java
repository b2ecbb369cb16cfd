package dev.berth.alloc.spec;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/** Nomad's {@code NetworkResource}: reserved (fixed) and dynamic ports. After admission every port has a Value. */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NetworkSpec(
        @JsonProperty("Mode") String mode,
        @JsonProperty("IP") String ip,
        @JsonProperty("ReservedPorts") List<PortSpec> reservedPorts,
        @JsonProperty("DynamicPorts") List<PortSpec> dynamicPorts) {

    /** A port: {@code Value} is the host port (given for reserved, assigned for dynamic); {@code To} the mapped port. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PortSpec(
            @JsonProperty("Label") String label,
            @JsonProperty("Value") Integer value,
            @JsonProperty("To") Integer to) {

        public PortSpec {
            to = to == null ? 0 : to; // Nomad's Port.To is an int: absent reads back as 0, never null
        }
    }
}
