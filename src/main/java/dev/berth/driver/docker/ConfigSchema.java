package dev.berth.driver.docker;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.berth.driver.TaskConfigValidationException;

/**
 * A strict schema for a driver's task {@code config}, with Nomad's HCL diagnostics as messages: unknown keys,
 * missing required keys and wrong types are all errors. Values arrive as parsed JSON (String, Number, Boolean,
 * List, Map).
 */
public final class ConfigSchema {

    /** The type of one attribute. */
    public enum Type {
        STRING("string"), NUMBER("number"), BOOL("bool"), LIST_OF_STRING("list of string"), MAP_OF_STRING("map of string");

        private final String hcl;

        Type(String hcl) {
            this.hcl = hcl;
        }
    }

    private record Attribute(Type type, boolean required) {
    }

    private final Map<String, Attribute> attributes;

    private ConfigSchema(Map<String, Attribute> attributes) {
        this.attributes = Map.copyOf(attributes);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The attribute names this schema knows. */
    public Set<String> names() {
        return attributes.keySet();
    }

    /** Throws on the first key that is unknown, missing (when required) or of the wrong type. */
    public void validate(Map<String, Object> config) throws TaskConfigValidationException {
        Map<String, Object> values = config == null ? Map.of() : config;
        for (Map.Entry<String, Object> entry : values.entrySet()) {
            Attribute attribute = attributes.get(entry.getKey());
            if (attribute == null) {
                throw new TaskConfigValidationException(entry.getKey(),
                        "Extraneous JSON object property; No argument or block type is named \"" + entry.getKey() + "\".");
            }
            if (entry.getValue() != null && !matches(attribute.type(), entry.getValue())) {
                throw new TaskConfigValidationException(entry.getKey(), "Incorrect attribute value type; Inappropriate value for attribute \""
                        + entry.getKey() + "\": " + attribute.type().hcl + " required.");
            }
        }
        for (Map.Entry<String, Attribute> entry : attributes.entrySet()) {
            if (entry.getValue().required() && values.get(entry.getKey()) == null) {
                throw new TaskConfigValidationException(entry.getKey(), "Missing required argument; The argument \"" + entry.getKey()
                        + "\" is required, but no definition was found.");
            }
        }
    }

    private static boolean matches(Type type, Object value) {
        return switch (type) {
            // HCL converts numbers and bools to strings, as Nomad accepts "image": 1 less often than users think
            case STRING -> value instanceof String || value instanceof Number || value instanceof Boolean;
            case NUMBER -> value instanceof Number || (value instanceof String s && isNumber(s));
            case BOOL -> value instanceof Boolean || "true".equals(value) || "false".equals(value);
            case LIST_OF_STRING -> value instanceof List<?> list && list.stream().allMatch(ConfigSchema::scalar);
            case MAP_OF_STRING -> value instanceof Map<?, ?> map && map.values().stream().allMatch(ConfigSchema::scalar);
        };
    }

    private static boolean scalar(Object value) {
        return value instanceof String || value instanceof Number || value instanceof Boolean;
    }

    private static boolean isNumber(String s) {
        try {
            Double.parseDouble(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Builds a schema; attribute order is kept for error reporting. */
    public static final class Builder {

        private final Map<String, Attribute> attributes = new LinkedHashMap<>();

        public Builder required(String name, Type type) {
            attributes.put(name, new Attribute(type, true));
            return this;
        }

        public Builder optional(String name, Type type) {
            attributes.put(name, new Attribute(type, false));
            return this;
        }

        public ConfigSchema build() {
            return new ConfigSchema(attributes);
        }
    }
}
