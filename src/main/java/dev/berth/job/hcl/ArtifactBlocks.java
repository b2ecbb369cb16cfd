package dev.berth.job.hcl;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A task's {@code artifact} blocks as Nomad's {@code Artifacts} JSON: {@code source} → {@code GetterSource},
 * {@code destination} → {@code RelativeDest}, {@code mode} → {@code GetterMode}, {@code insecure} → {@code GetterInsecure},
 * {@code chown} → {@code Chown}, the {@code options} and {@code headers} blocks → {@code GetterOptions} and
 * {@code GetterHeaders} (string values). Defaults are left to the spec, as Nomad's API fills them on submission.
 */
final class ArtifactBlocks {

    private ArtifactBlocks() {
    }

    static void map(JsonNode task, ObjectNode target, JsonMapper json) {
        if (!task.has("artifact")) {
            return;
        }
        ArrayNode list = target.putArray("Artifacts");
        JobspecMapping.each(task.get("artifact"), a -> list.add(artifact(a, json)));
    }

    private static ObjectNode artifact(JsonNode a, JsonMapper json) {
        ObjectNode o = json.createObjectNode();
        o.put("GetterSource", text(a.get("source")));
        if (a.has("destination")) {
            o.put("RelativeDest", text(a.get("destination")));
        }
        if (a.has("mode")) {
            o.put("GetterMode", text(a.get("mode")));
        }
        if (a.has("insecure")) {
            o.put("GetterInsecure", a.path("insecure").asBoolean(false));
        }
        if (a.has("chown")) {
            o.put("Chown", a.path("chown").asBoolean(false));
        }
        if (a.has("options")) {
            o.set("GetterOptions", strings(a.get("options"), json));
        }
        if (a.has("headers")) {
            o.set("GetterHeaders", strings(a.get("headers"), json));
        }
        return o;
    }

    private static ObjectNode strings(JsonNode block, JsonMapper json) {
        ObjectNode o = json.createObjectNode();
        JobspecMapping.each(block, b -> b.properties().forEach(e -> o.put(e.getKey(), text(e.getValue()))));
        return o;
    }

    private static String text(JsonNode n) {
        if (n == null || n.isNull()) {
            return "";
        }
        if (n.isBoolean()) {
            return Boolean.toString(n.asBoolean());
        }
        return n.isNumber() ? JobspecMapping.number(n) : n.asString();
    }
}
