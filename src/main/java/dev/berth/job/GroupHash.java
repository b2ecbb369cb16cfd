package dev.berth.job;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;
import java.util.TreeMap;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Fingerprint of what makes a group change destructive (Nomad's {@code tasksUpdated}): tasks, networks, ephemeral disk,
 * volumes. Count, meta, update, reschedule, migrate, scaling and services change in place. Key order does not matter.
 */
final class GroupHash {

    private static final Set<String> IN_PLACE_GROUP = Set.of("Count", "Meta", "Update", "ReschedulePolicy", "Migrate", "Scaling",
            "Services", "Spreads", "Affinities", "Constraints", "StopAfterClientDisconnect", "MaxClientDisconnect", "Disconnect");
    private static final Set<String> IN_PLACE_TASK = Set.of("Meta", "Services", "Affinities", "Constraints", "KillTimeout",
            "ShutdownDelay", "KillSignal", "RestartPolicy");

    private GroupHash() {
    }

    static String of(JsonNode group) {
        ObjectNode g = ((ObjectNode) group).deepCopy();
        IN_PLACE_GROUP.forEach(g::remove);
        for (JsonNode t : g.path("Tasks")) {
            if (t instanceof ObjectNode task) {
                IN_PLACE_TASK.forEach(task::remove);
            }
        }
        StringBuilder sb = new StringBuilder();
        canonical(g, sb);
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(sb.toString().getBytes(StandardCharsets.UTF_8)))
                    .substring(0, 32);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void canonical(JsonNode n, StringBuilder sb) {
        if (n.isObject()) {
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            n.properties().forEach(e -> sorted.put(e.getKey(), e.getValue()));
            sb.append('{');
            sorted.forEach((k, v) -> {
                sb.append(k).append(':');
                canonical(v, sb);
                sb.append(',');
            });
            sb.append('}');
        } else if (n.isArray()) {
            sb.append('[');
            n.forEach(v -> {
                canonical(v, sb);
                sb.append(',');
            });
            sb.append(']');
        } else {
            sb.append(n.toString());
        }
    }
}
