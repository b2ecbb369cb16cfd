package dev.berth.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.volume.DynamicHostVolume;

/**
 * Nomad's JSON of dynamic host volumes: the {@code HostVolume} (with its {@code Allocations} when any use it), the
 * list's {@code HostVolumeStub}, and the {@code {"Volume": …}} body of create and register, decoded as Go's JSON
 * decoder does (unknown fields ignored, a value of the wrong type refused with Go's text).
 */
final class HostVolumeJson {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private HostVolumeJson() {
    }

    /** The volume of a create or register body; its namespace is {@code namespace} when the body names none. */
    static DynamicHostVolume request(String raw, String namespace) {
        JsonNode body = parse(raw);
        JsonNode v = body.path("Volume");
        if (v.isMissingNode() || v.isNull()) {
            throw new ApiException.BadRequest("missing volume definition");
        }
        if (!v.isObject()) {
            throw typeError(v, "Volume", "structs.HostVolume");
        }
        String ns = text(v, "Namespace");
        return new DynamicHostVolume(ns.isEmpty() ? namespace : ns, text(v, "ID"), text(v, "Name"), text(v, "PluginID"),
                text(v, "NodePool"), text(v, "NodeID"), list(v, "Constraints", "structs.Constraint",
                        c -> new DynamicHostVolume.Constraint(text(c, "LTarget"), text(c, "RTarget"), text(c, "Operand"))),
                number(v, "RequestedCapacityMinBytes"), number(v, "RequestedCapacityMaxBytes"), number(v, "CapacityBytes"),
                list(v, "RequestedCapabilities", "structs.HostVolumeCapability",
                        c -> new DynamicHostVolume.Capability(text(c, "AttachmentMode"), text(c, "AccessMode"))),
                parameters(v), text(v, "HostPath"), "", 0, 0, 0, 0);
    }

    /** Nomad's {@code HostVolume}; {@code Allocations} (the IDs of those using it) only when some do. */
    static ObjectNode volume(DynamicHostVolume v, List<String> allocations) {
        ObjectNode o = F.objectNode();
        o.put("Namespace", v.namespace());
        o.put("ID", v.id());
        o.put("Name", v.name());
        o.put("PluginID", v.pluginId());
        o.put("NodePool", v.nodePool());
        o.put("NodeID", v.nodeId());
        if (!v.constraints().isEmpty()) {
            ArrayNode cs = o.putArray("Constraints");
            v.constraints().forEach(c -> cs.addObject().put("LTarget", c.lTarget()).put("RTarget", c.rTarget()).put("Operand", c.operand()));
        }
        o.put("RequestedCapacityMinBytes", v.requestedCapacityMinBytes());
        o.put("RequestedCapacityMaxBytes", v.requestedCapacityMaxBytes());
        o.put("CapacityBytes", v.capacityBytes());
        ArrayNode caps = o.putArray("RequestedCapabilities");
        v.requestedCapabilities().forEach(c -> caps.addObject().put("AttachmentMode", c.attachmentMode()).put("AccessMode", c.accessMode()));
        if (!v.parameters().isEmpty()) {
            ObjectNode params = o.putObject("Parameters");
            v.parameters().forEach(params::put);
        }
        o.put("HostPath", v.hostPath());
        o.put("State", v.state());
        o.put("CreateIndex", v.createIndex());
        o.put("CreateTime", v.createTime());
        o.put("ModifyIndex", v.modifyIndex());
        o.put("ModifyTime", v.modifyTime());
        if (allocations != null && !allocations.isEmpty()) {
            ArrayNode allocs = o.putArray("Allocations");
            allocations.forEach(id -> allocs.addObject().put("ID", id));
        }
        return o;
    }

    /** Nomad's {@code HostVolumeStub}, a row of the list. */
    static ObjectNode stub(DynamicHostVolume v) {
        ObjectNode o = F.objectNode();
        o.put("Namespace", v.namespace());
        o.put("ID", v.id());
        o.put("Name", v.name());
        o.put("PluginID", v.pluginId());
        o.put("NodePool", v.nodePool());
        o.put("NodeID", v.nodeId());
        o.put("CapacityBytes", v.capacityBytes());
        o.put("State", v.state());
        o.put("CreateIndex", v.createIndex());
        o.put("CreateTime", v.createTime());
        o.put("ModifyIndex", v.modifyIndex());
        o.put("ModifyTime", v.modifyTime());
        return o;
    }

    /** The answer to create and register: the volume, Nomad's (empty) {@code Warnings} and the write's index. */
    static ObjectNode written(DynamicHostVolume v) {
        ObjectNode o = F.objectNode();
        o.set("Volume", volume(v, null));
        o.put("Warnings", "");
        o.put("Index", v.modifyIndex());
        return o;
    }

    private static JsonNode parse(String raw) {
        if (raw == null || raw.isBlank()) {
            throw new ApiException.BadRequest("Request body is empty");
        }
        JsonNode node;
        try {
            node = JSON.readTree(raw);
        } catch (JacksonException e) {
            throw new ApiException.BadRequest("Failed to decode body: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw new ApiException.BadRequest("json: cannot unmarshal " + goKind(node) + " into Go value of type structs.HostVolumeCreateRequest");
        }
        return node;
    }

    private static String text(JsonNode parent, String field) {
        JsonNode n = parent.path(field);
        if (n.isMissingNode() || n.isNull()) {
            return "";
        }
        if (!n.isString()) {
            throw typeError(n, field, "string");
        }
        return n.asString();
    }

    private static long number(JsonNode parent, String field) {
        JsonNode n = parent.path(field);
        if (n.isMissingNode() || n.isNull()) {
            return 0;
        }
        if (!n.isIntegralNumber() || !n.canConvertToLong()) {
            throw typeError(n, field, "int64");
        }
        return n.asLong();
    }

    private static Map<String, String> parameters(JsonNode v) {
        JsonNode n = v.path("Parameters");
        Map<String, String> out = new LinkedHashMap<>();
        if (n.isMissingNode() || n.isNull()) {
            return out;
        }
        if (!n.isObject()) {
            throw typeError(n, "Parameters", "map[string]string");
        }
        n.properties().forEach(e -> out.put(e.getKey(), text(n, e.getKey())));
        return out;
    }

    private static <T> List<T> list(JsonNode v, String field, String goType, Function<JsonNode, T> item) {
        JsonNode n = v.path(field);
        List<T> out = new ArrayList<>();
        if (n.isMissingNode() || n.isNull()) {
            return out;
        }
        if (!n.isArray()) {
            throw typeError(n, field, "[]*" + goType);
        }
        for (JsonNode e : n) {
            if (!e.isObject()) {
                throw typeError(e, field, goType);
            }
            out.add(item.apply(e));
        }
        return out;
    }

    /** Go's decoder text for a value of the wrong JSON type. */
    private static ApiException typeError(JsonNode n, String field, String goType) {
        return new ApiException.BadRequest("json: cannot unmarshal " + goKind(n) + " into Go struct field HostVolume.Volume."
                + field + " of type " + goType);
    }

    private static String goKind(JsonNode n) {
        if (n == null || n.isNull()) {
            return "null";
        }
        if (n.isString()) {
            return "string";
        }
        if (n.isNumber()) {
            return "number";
        }
        if (n.isBoolean()) {
            return "bool";
        }
        return n.isArray() ? "array" : "object";
    }
}
