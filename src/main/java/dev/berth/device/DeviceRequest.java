package dev.berth.device;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A task's request for devices (Nomad {@code RequestedDevice} in {@code Resources.Devices}): {@code Name} is
 * {@code <type>}, {@code <vendor>/<type>} or {@code <vendor>/<type>/<model>} (e.g. {@code gpu}, {@code nvidia/gpu},
 * {@code nvidia/gpu/Tesla T4}); {@code Count} instances of one matching group are needed (Nomad defaults it to 1).
 * Nomad's {@code Constraints} and {@code Affinities} are accepted and ignored: a single node has no placement choice
 * beyond the group.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record DeviceRequest(@JsonProperty("Name") String name, @JsonProperty("Count") Integer count) {

    public DeviceRequest {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("device name must be specified");
        }
        count = count == null ? 1 : count;
        if (count < 0) {
            throw new IllegalArgumentException("device \"" + name + "\" count must be non-negative, was " + count);
        }
    }

    /** Whether a group satisfies this request's name (Nomad {@code RequestedDevice.ID().Matches}). */
    public boolean matches(DeviceGroupKey group) {
        String[] parts = name.split("/", 3);
        return switch (parts.length) {
            case 1 -> parts[0].equals(group.type());
            case 2 -> parts[0].equals(group.vendor()) && parts[1].equals(group.type());
            default -> parts[0].equals(group.vendor()) && parts[1].equals(group.type()) && parts[2].equals(group.name());
        };
    }
}
