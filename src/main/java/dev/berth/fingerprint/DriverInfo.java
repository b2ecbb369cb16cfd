package dev.berth.fingerprint;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * What the node knows about one task driver (Nomad's {@code DriverInfo}).
 *
 * @param attributes        the driver's own attributes, as it reported them
 * @param detected          whether the driver is present ({@code health != undetected})
 * @param healthy           whether the driver is healthy
 * @param healthDescription the driver's health description
 * @param updateTime        when this info last changed
 */
public record DriverInfo(Map<String, String> attributes, boolean detected, boolean healthy, String healthDescription,
                         Instant updateTime) {

    /** Nomad's text for a driver whose fingerprint failed or timed out. */
    public static final String FAILED_DESCRIPTION = "failed to fingerprint driver";

    public DriverInfo {
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
        healthDescription = healthDescription == null ? "" : healthDescription;
        Objects.requireNonNull(updateTime, "'updateTime' must not be null");
    }

    public static DriverInfo failed(Instant now) {
        return new DriverInfo(Map.of(), false, false, FAILED_DESCRIPTION, now);
    }
}
