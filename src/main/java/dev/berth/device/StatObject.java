package dev.berth.device;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A tree of statistics (Nomad {@code StatObject}).
 *
 * @param nested     named sub-trees, or null
 * @param attributes named values, or null
 */
public record StatObject(
        @JsonProperty("Nested") Map<String, StatObject> nested,
        @JsonProperty("Attributes") Map<String, StatValue> attributes) {

    public StatObject {
        nested = nested == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(nested));
        attributes = attributes == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
    }

    public static StatObject of(Map<String, StatValue> attributes) {
        return new StatObject(null, attributes);
    }

    /** The attribute with this name, or null. */
    public StatValue attribute(String name) {
        return attributes == null ? null : attributes.get(name);
    }
}
