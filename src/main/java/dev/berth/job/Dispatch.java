package dev.berth.job;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The checks and the derived child of Nomad's {@code Job.Dispatch}, with Nomad's error texts. */
final class Dispatch {

    /** Nomad's {@code DispatchPayloadSizeLimit}. */
    static final int PAYLOAD_LIMIT = 16 * 1024;
    /** Nomad's {@code structs.DispatchLaunchSuffix}. */
    static final String SUFFIX = "/dispatch-";

    private Dispatch() {
    }

    /** Nomad's {@code validateDispatchRequest}. */
    static void validate(JsonNode parameterized, byte[] payload, Map<String, String> meta) throws JobException {
        boolean hasPayload = payload != null && payload.length > 0;
        String mode = parameterized.path("Payload").asString("optional");
        if ("required".equals(mode) && !hasPayload) {
            throw new JobException(JobException.Kind.INVALID, "Payload is not provided but required by parameterized job");
        }
        if ("forbidden".equals(mode) && hasPayload) {
            throw new JobException(JobException.Kind.INVALID, "Payload provided but forbidden by parameterized job");
        }
        if (hasPayload && payload.length > PAYLOAD_LIMIT) {
            throw new JobException(JobException.Kind.INVALID, "Payload exceeds maximum size; " + payload.length + " > " + PAYLOAD_LIMIT);
        }
        List<String> required = strings(parameterized.path("MetaRequired"));
        List<String> optional = strings(parameterized.path("MetaOptional"));
        List<String> unpermitted = meta.keySet().stream().filter(k -> !required.contains(k) && !optional.contains(k)).sorted().toList();
        if (!unpermitted.isEmpty()) {
            throw new JobException(JobException.Kind.INVALID, "Dispatch request included unpermitted metadata keys: " + goList(unpermitted));
        }
        List<String> missing = required.stream().filter(k -> !meta.containsKey(k)).sorted().toList();
        if (!missing.isEmpty()) {
            throw new JobException(JobException.Kind.INVALID, "Dispatch did not provide required meta keys: " + goList(missing));
        }
    }

    /** The dispatched child: {@code <id>/dispatch-<unix>-<8 hex>}, {@code Dispatched}, meta merged, payload stored. */
    static ObjectNode derive(ObjectNode parent, byte[] payload, Map<String, String> meta, long unixSeconds) {
        String childId = JobService.id(parent) + SUFFIX + unixSeconds + "-" + UUID.randomUUID().toString().substring(0, 8);
        ObjectNode child = JobRegistry.specOf(parent);
        child.put("ID", childId);
        child.put("Name", childId);
        child.put("ParentID", JobService.id(parent));
        child.put("Dispatched", true);
        child.put("Status", "");
        child.put("StatusDescription", "");
        if (!meta.isEmpty()) {
            ObjectNode m = child.get("Meta") instanceof ObjectNode o ? o : child.putObject("Meta");
            meta.forEach(m::put);
        }
        if (payload != null && payload.length > 0) {
            child.put("Payload", Base64.getEncoder().encodeToString(payload));
        } else {
            child.putNull("Payload");
        }
        return child;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asString()));
        return out;
    }

    /** Go's {@code %v} of a string slice: {@code [a b]}. */
    private static String goList(List<String> l) {
        return "[" + String.join(" ", l) + "]";
    }
}
