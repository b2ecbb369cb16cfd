package dev.berth.fingerprint;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Nomad's {@code applyNodeUpdatesFromDriver}, as a pure function from (node, driver name, new info) to the new node,
 * including the fix of Nomad bug #4984: on <em>every</em> change of Detected, Healthy, HealthDescription or the
 * attributes the whole {@link DriverInfo} is replaced, so a driver that started unhealthy becomes healthy on the node.
 */
final class DriverNodeUpdates {

    private DriverNodeUpdates() {
    }

    static Node apply(Node node, String driverName, DriverInfo info, Instant now) {
        Map<String, String> attributes = new HashMap<>(node.attributes());
        DriverInfo old = node.drivers().get(driverName);
        boolean changed;
        NodeEvent event = null;
        if (old == null) {
            changed = true;
            info.attributes().forEach((key, value) -> {
                if (!value.isEmpty()) {
                    attributes.put(key, value);
                }
            });
        } else {
            changed = old.detected() != info.detected();
            if (old.healthy() != info.healthy() || !old.healthDescription().equals(info.healthDescription())) {
                changed = true;
                if (!info.healthDescription().isEmpty()) {
                    event = new NodeEvent(info.healthDescription(), "Driver", Map.of("driver", driverName), now);
                }
            }
            for (Map.Entry<String, String> entry : info.attributes().entrySet()) {
                if (Objects.equals(old.attributes().get(entry.getKey()), entry.getValue())) {
                    continue;
                }
                changed = true;
                if (entry.getValue().isEmpty()) {
                    attributes.remove(entry.getKey());
                } else {
                    attributes.put(entry.getKey(), entry.getValue());
                }
            }
            // Nomad misses attributes a driver stopped reporting; they would linger on the node forever.
            for (String key : old.attributes().keySet()) {
                if (!info.attributes().containsKey(key)) {
                    changed = true;
                    attributes.remove(key);
                }
            }
        }
        // COMPAT (Nomad): driver.<name>=1 whenever detected, even when the driver reports its own value for it.
        String enabledKey = "driver." + driverName;
        if (info.detected()) {
            attributes.put(enabledKey, "1");
        } else {
            attributes.remove(enabledKey);
        }
        Node updated = node.withAttributes(attributes);
        if (changed) {
            updated = updated.withDriver(driverName, info);
        }
        if (event != null) {
            updated = updated.withEvent(event);
        }
        return updated;
    }
}
