package dev.berth.job.hcl;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A group's {@code volume "name" { type, source, read_only }} blocks as Nomad's {@code TaskGroup.Volumes} and a task's
 * {@code volume_mount { volume, destination, read_only, propagation_mode }} blocks as {@code Task.VolumeMounts}.
 */
final class VolumeBlocks {

    private VolumeBlocks() {
    }

    static void volumes(JsonNode group, ObjectNode target) {
        if (!group.has("volume")) {
            return;
        }
        ObjectNode volumes = target.putObject("Volumes");
        JobspecMapping.each(group.get("volume"), block -> block.properties().forEach(e -> {
            JsonNode v = e.getValue().isArray() ? e.getValue().path(0) : e.getValue();
            ObjectNode o = volumes.putObject(e.getKey());
            o.put("Name", e.getKey());
            o.put("Type", v.path("type").asString(""));
            o.put("Source", v.path("source").asString(""));
            o.put("ReadOnly", v.path("read_only").asBoolean(false));
        }));
    }

    static void mounts(JsonNode task, ObjectNode target, JsonMapper json) {
        if (!task.has("volume_mount")) {
            return;
        }
        ArrayNode mounts = target.putArray("VolumeMounts");
        JobspecMapping.each(task.get("volume_mount"), m -> {
            ObjectNode o = json.createObjectNode();
            o.put("Volume", m.path("volume").asString(""));
            o.put("Destination", m.path("destination").asString(""));
            o.put("ReadOnly", m.path("read_only").asBoolean(false));
            o.put("PropagationMode", m.path("propagation_mode").asString("private"));
            mounts.add(o);
        });
    }
}
