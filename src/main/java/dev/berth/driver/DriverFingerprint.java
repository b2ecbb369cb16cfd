package dev.berth.driver;

import java.util.Map;
import java.util.Objects;

/**
 * One fingerprint of a task driver.
 *
 * @param health      undetected, unhealthy or healthy
 * @param description human-readable health description (Nomad's {@code HealthDescription})
 * @param attributes  driver attributes, e.g. {@code driver.raw_exec=true}
 */
public record DriverFingerprint(HealthState health, String description, Map<String, String> attributes) {

    public DriverFingerprint {
        Objects.requireNonNull(health, "'health' must not be null");
        description = description == null ? "" : description;
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
    }

    public static DriverFingerprint healthy(Map<String, String> attributes) {
        return new DriverFingerprint(HealthState.HEALTHY, "Healthy", attributes);
    }

    public static DriverFingerprint disabled() {
        return new DriverFingerprint(HealthState.UNDETECTED, "disabled", Map.of());
    }
}
