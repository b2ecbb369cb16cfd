package dev.berth.fingerprint;

import java.util.Map;

/**
 * What one {@link Fingerprinter} found. Attribute values must not be empty.
 *
 * @param attributes node attributes this fingerprinter owns (all of them, every time)
 * @param cpu        CPU resources, or null when this fingerprinter does not measure them
 * @param memory     memory resources, or null
 * @param disk       disk resources, or null
 * @param links      links this fingerprinter owns (all of them, every time)
 */
public record FingerprintResult(Map<String, String> attributes, NodeResources.Cpu cpu, NodeResources.Memory memory,
                                NodeResources.Disk disk, Map<String, String> links) {

    public FingerprintResult {
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
        links = links == null ? Map.of() : Map.copyOf(links);
        attributes.forEach((key, value) -> {
            if (value.isEmpty()) {
                throw new IllegalArgumentException("attribute '" + key + "' must not be empty");
            }
        });
    }

    /** A result with attributes only. */
    public static FingerprintResult ofAttributes(Map<String, String> attributes) {
        return new FingerprintResult(attributes, null, null, null, null);
    }

    /** Nothing found (the fingerprinter does not apply to this host). */
    public static FingerprintResult empty() {
        return ofAttributes(Map.of());
    }
}
