package dev.berth.device;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One device instance (Nomad {@code Device} / node {@code NodeDevice}).
 *
 * @param id                the instance ID, unique on the host (a GPU UUID, a file name, …)
 * @param healthy           whether tasks may be given this instance
 * @param healthDescription why it is unhealthy (empty when healthy)
 * @param locality          hardware locality, or null when unknown
 */
public record DeviceInstance(
        @JsonProperty("ID") String id,
        @JsonProperty("Healthy") boolean healthy,
        @JsonProperty("HealthDescription") String healthDescription,
        @JsonProperty("Locality") Locality locality) {

    public DeviceInstance {
        healthDescription = healthDescription == null ? "" : healthDescription;
    }

    public static DeviceInstance healthy(String id, String pciBusId) {
        return new DeviceInstance(id, true, "", pciBusId == null ? null : new Locality(pciBusId));
    }

    DeviceInstance withHealth(boolean healthy, String description) {
        return new DeviceInstance(id, healthy, description, locality);
    }

    /** @param pciBusId the PCI bus ID, e.g. {@code 00000000:3B:00.0} */
    public record Locality(@JsonProperty("PciBusID") String pciBusId) {
    }
}
