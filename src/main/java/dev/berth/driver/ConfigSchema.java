package dev.berth.driver;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * A driver's task-config schema, checked strictly as Nomad's HCL decoder does: unknown keys, missing
 * required keys and wrong types are errors whose messages follow HCL's diagnostics and name the key. Values are
 * converted the way HCL's type system converts JSON: a number-like string is a number, {@code "true"}/{@code "false"}
 * is a bool, a number or bool is a string. Durations are Go duration strings ({@link GoDuration}).
 */
public final class ConfigSchema {

    /** The attribute types driver configs use. */
    public enum Type {
        STRING("a string"), NUMBER("a number"), BOOL("a bool"), DURATION("a duration string"),
        STRING_LIST("a list of string");

        private final String required;

        Type(String required) {
            this.required = required;
        }
    }

    /** One attribute of the schema. */
    public record Attribute(String name, Type type, boolean required) {
        public Attribute {
            Objects.requireNonNull(name, "'name' must not be null");
            Objects.requireNonNull(type, "'type' must not be null");
        }
    }

    private final Map<String, Attribute> attributes;

    private ConfigSchema(Map<String, Attribute> attributes) {
        this.attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
    }

    public static Builder builder() {
        return new Builder();
    }

    public Map<String, Attribute> attributes() {
        return attributes;
    }

    /** Validates and converts {@code config}; the result only holds keys that were given. */
    public Validated validate(Map<String, Object> config) throws TaskConfigValidationException {
        Map<String, Object> given = config == null ? Map.of() : config;
        // Sorted so that the first reported key does not depend on map order.
        for (String key : new TreeSet<>(given.keySet())) {
            if (!attributes.containsKey(key)) {
                throw new TaskConfigValidationException(key,
                        "Extraneous JSON object property; No argument or block type is named \"" + key + "\".");
            }
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (Attribute attribute : attributes.values()) {
            Object raw = given.get(attribute.name());
            if (raw == null) {
                if (attribute.required()) {
                    throw new TaskConfigValidationException(attribute.name(), "Missing required argument; The argument \""
                            + attribute.name() + "\" is required, but no definition was found.");
                }
                continue;
            }
            values.put(attribute.name(), convert(attribute, raw));
        }
        return new Validated(values);
    }

    private static Object convert(Attribute attribute, Object raw) throws TaskConfigValidationException {
        Object value = switch (attribute.type()) {
            case STRING -> raw instanceof String || raw instanceof Number || raw instanceof Boolean ? String.valueOf(raw) : null;
            case NUMBER -> toNumber(raw);
            case BOOL -> raw instanceof Boolean b ? b
                    : "true".equals(raw) ? Boolean.TRUE : "false".equals(raw) ? Boolean.FALSE : null;
            case DURATION -> raw instanceof String s ? s : null;
            case STRING_LIST -> toStringList(raw);
        };
        if (value == null) {
            throw new TaskConfigValidationException(attribute.name(), "Incorrect attribute value type; Inappropriate value for attribute \""
                    + attribute.name() + "\": " + attribute.type().required + " is required.");
        }
        if (attribute.type() == Type.DURATION) {
            try {
                // as in Nomad's driver configs, an empty duration is zero
                return ((String) value).isEmpty() ? Duration.ZERO : GoDuration.parse((String) value);
            } catch (IllegalArgumentException ex) {
                throw new TaskConfigValidationException(attribute.name(), "Invalid value for attribute \""
                        + attribute.name() + "\": " + ex.getMessage());
            }
        }
        return value;
    }

    private static Long toNumber(Object raw) {
        if (raw instanceof Integer || raw instanceof Long || raw instanceof Short || raw instanceof Byte) {
            return ((Number) raw).longValue();
        }
        if (raw instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()) && !Double.isInfinite(n.doubleValue())) {
            return n.longValue();
        }
        if (raw instanceof String s) {
            try {
                return Long.parseLong(s.trim());
            } catch (NumberFormatException ex) {
                return null;
            }
        }
        return null;
    }

    private static List<String> toStringList(Object raw) {
        if (!(raw instanceof List<?> list)) {
            return null;
        }
        List<String> out = new ArrayList<>(list.size());
        for (Object item : list) {
            if (!(item instanceof String || item instanceof Number || item instanceof Boolean)) {
                return null;
            }
            out.add(String.valueOf(item));
        }
        return List.copyOf(out);
    }

    /** Builds a schema attribute by attribute. */
    public static final class Builder {
        private final Map<String, Attribute> attributes = new LinkedHashMap<>();

        public Builder optional(String name, Type type) {
            attributes.put(name, new Attribute(name, type, false));
            return this;
        }

        public Builder required(String name, Type type) {
            attributes.put(name, new Attribute(name, type, true));
            return this;
        }

        public ConfigSchema build() {
            return new ConfigSchema(attributes);
        }
    }

    /** A config that passed validation, with typed accessors (defaults for keys that were not given). */
    public static final class Validated {
        private final Map<String, Object> values;

        private Validated(Map<String, Object> values) {
            this.values = Collections.unmodifiableMap(values);
        }

        public boolean has(String key) {
            return values.containsKey(key);
        }

        public String string(String key, String fallback) {
            return values.get(key) instanceof String s ? s : fallback;
        }

        public long number(String key, long fallback) {
            return values.get(key) instanceof Long l ? l : fallback;
        }

        public boolean bool(String key, boolean fallback) {
            return values.get(key) instanceof Boolean b ? b : fallback;
        }

        public Duration duration(String key) {
            return values.get(key) instanceof Duration d ? d : Duration.ZERO;
        }

        @SuppressWarnings("unchecked")
        public List<String> stringList(String key) {
            return values.get(key) instanceof List<?> l ? (List<String>) l : List.of();
        }
    }
}
