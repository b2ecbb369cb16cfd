package dev.berth.device;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One device instance (Nomad {@code Device} / node {@code NodeDevice}).
 *
 * @param id                the instance ID, unique on the host (a GPU UUID, a file name, …)
 * @param healthy           whether tasks may be given this instance
 * @param healthDescription why it is unhealthy (empty when healthy)
 * @param locality          hardware locality, or null when unknown
 * @param attributes        Berth's extension: attributes of this instance alone (a MIG device's {@code parent_uuid}),
 *                          null (left out of the JSON) for most instances; Nomad has group attributes only
 */
public record DeviceInstance(
        @JsonProperty("ID") String id,
        @JsonProperty("Healthy") boolean healthy,
        @JsonProperty("HealthDescription") String healthDescription,
        @JsonProperty("Locality") Locality locality,
        @JsonProperty("Attributes") @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Attribute> attributes) {

    public DeviceInstance {
        healthDescription = healthDescription == null ? "" : healthDescription;
        attributes = attributes == null ? null : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(attributes));
    }

    public DeviceInstance(String id, boolean healthy, String healthDescription, Locality locality) {
        this(id, healthy, healthDescription, locality, null);
    }

    public static DeviceInstance healthy(String id, String pciBusId) {
        return new DeviceInstance(id, true, "", pciBusId == null ? null : new Locality(pciBusId));
    }

    DeviceInstance withHealth(boolean healthy, String description) {
        return new DeviceInstance(id, healthy, description, locality, attributes);
    }

    /** @param pciBusId the PCI bus ID, e.g. {@code 00000000:3B:00.0} */
    public record Locality(@JsonProperty("PciBusID") String pciBusId) {
    }
}
