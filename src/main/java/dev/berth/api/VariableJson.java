package dev.berth.api;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.driver.GoDuration;
import dev.berth.variables.LockRequest;
import dev.berth.variables.Variable;
import dev.berth.variables.VariableEvent;
import dev.berth.variables.VariableLock;
import dev.berth.variables.VariableMeta;

/**
 * Variables in Nomad's JSON ({@code api/variables.go}): a variable is its metadata ({@code Namespace}, {@code Path},
 * {@code Lock} when shown, {@code CreateIndex}, {@code CreateTime}, {@code ModifyIndex}, {@code ModifyTime}) followed by
 * {@code Items} (left out when empty); a lock is {@code {"TTL":"15s","LockDelay":"15s","ID":"…"}} with Go durations.
 * A request body is read as Nomad's decoder reads it: unknown fields ignored, {@code Items} values strings, a lock's
 * {@code TTL}/{@code LockDelay} a Go duration or a number of nanoseconds.
 */
final class VariableJson {

    /** A request's variable: the body's namespace (null when not given), its items, whether it had any, its lock. */
    record Body(String namespace, Map<String, String> items, boolean itemsGiven, LockRequest lock) {
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private VariableJson() {
    }

    static Body body(String raw) {
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
            throw new ApiException.BadRequest("Failed to decode body: expected a JSON object");
        }
        String namespace = text(node, "Namespace");
        JsonNode itemsNode = node.get("Items");
        Map<String, String> items = new TreeMap<>();
        if (itemsNode != null && !itemsNode.isNull()) {
            if (!itemsNode.isObject()) {
                throw new ApiException.BadRequest("Failed to decode body: Items must be an object of strings");
            }
            for (Map.Entry<String, JsonNode> e : itemsNode.properties()) {
                if (!e.getValue().isString()) {
                    throw new ApiException.BadRequest("Failed to decode body: Items value of \"" + e.getKey() + "\" is not a string");
                }
                items.put(e.getKey(), e.getValue().asString());
            }
        }
        return new Body(namespace == null || namespace.isEmpty() ? null : namespace, items,
                itemsNode != null && !itemsNode.isNull(), lock(node.get("Lock")));
    }

    private static LockRequest lock(JsonNode lock) {
        if (lock == null || lock.isNull()) {
            return LockRequest.NONE;
        }
        if (!lock.isObject()) {
            throw new ApiException.BadRequest("Failed to decode body: Lock must be an object");
        }
        return new LockRequest(text(lock, "ID"), duration(lock, "TTL"), duration(lock, "LockDelay"));
    }

    private static Duration duration(JsonNode lock, String field) {
        JsonNode value = lock.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (value.isNumber()) {
            return Duration.ofNanos(value.asLong());
        }
        String text = value.asString();
        try {
            return text.isEmpty() ? null : GoDuration.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ApiException.BadRequest("Failed to decode body: time: invalid duration \"" + text + "\"");
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asString();
    }

    /** A variable with its items; its lock only when {@code showLock} (Nomad shows locks to management tokens). */
    static ObjectNode variable(Variable v, boolean showLock) {
        ObjectNode o = meta(v.meta(), showLock);
        if (!v.items().isEmpty()) {
            ObjectNode items = o.putObject("Items");
            v.items().forEach(items::put);
        }
        return o;
    }

    static ObjectNode meta(VariableMeta m, boolean showLock) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("Namespace", m.namespace());
        o.put("Path", m.path());
        if (showLock && m.lock() != null) {
            o.set("Lock", lock(m.lock()));
        }
        o.put("CreateIndex", m.createIndex());
        o.put("CreateTime", m.createTime());
        o.put("ModifyIndex", m.modifyIndex());
        o.put("ModifyTime", m.modifyTime());
        return o;
    }

    private static ObjectNode lock(VariableLock lock) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("TTL", lock.ttl().isZero() ? "" : GoDuration.format(lock.ttl()));
        o.put("LockDelay", lock.lockDelay().isZero() ? "" : GoDuration.format(lock.lockDelay()));
        o.put("ID", lock.id());
        return o;
    }

    /** An event's payload (Nomad's {@code VariableEvent}): {@code {"Metadata":{…},"Deleted":false}}. */
    static ObjectNode event(VariableEvent event) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.set("Metadata", meta(event.metadata(), true));
        o.put("Deleted", event.deleted());
        return o;
    }
}
