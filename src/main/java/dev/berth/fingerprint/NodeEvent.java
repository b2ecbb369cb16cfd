package dev.berth.fingerprint;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * Something that happened to the node (Nomad's {@code NodeEvent}), e.g. a driver's health changed.
 *
 * @param message   human-readable message
 * @param subsystem {@code Driver}, {@code Cluster}, {@code Fingerprint}, …
 * @param details   extra key/values, e.g. {@code driver=raw_exec}
 * @param timestamp when it happened
 */
public record NodeEvent(String message, String subsystem, Map<String, String> details, Instant timestamp) {

    public NodeEvent {
        Objects.requireNonNull(message, "'message' must not be null");
        Objects.requireNonNull(subsystem, "'subsystem' must not be null");
        details = details == null ? Map.of() : Map.copyOf(details);
        Objects.requireNonNull(timestamp, "'timestamp' must not be null");
    }
}
