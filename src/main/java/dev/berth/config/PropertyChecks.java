package dev.berth.config;

import java.time.Duration;
import java.util.function.Predicate;

import org.springframework.util.unit.DataSize;

/**
 * The checks the {@code *Properties} records run in their compact constructors, so that a bad value stops start-up
 * with a message naming the key ({@code 'berth.gc.max-allocs' must be at least 1, was 0}); Spring Boot binds the
 * records through those constructors and {@link BerthPropertiesFailureAnalyzer} reports the message. Done by hand so
 * that the agent carries no bean-validation provider (several hundred classes loaded at start-up) for a few rules.
 */
public final class PropertyChecks {

    private PropertyChecks() {
    }

    /** A configured value that breaks a rule of its key. */
    public static final class InvalidPropertyException extends IllegalArgumentException {

        private final String key;
        private final String rule;

        InvalidPropertyException(String key, String rule) {
            super("'" + key + "' " + rule);
            this.key = key;
            this.rule = rule;
        }

        /** The full key, e.g. {@code berth.gc.max-allocs}. */
        public String key() {
            return key;
        }

        /** What the value broke, e.g. {@code must be at least 1, was 0}. */
        public String rule() {
            return rule;
        }
    }

    /** {@code value}, which must be present (an empty value binds to null for most types). */
    public static <T> T required(String key, T value) {
        return check(key, value, v -> v != null, "must be set");
    }

    /** {@code value}, which must contain a non-whitespace character. */
    public static String notBlank(String key, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidPropertyException(key, "must not be blank");
        }
        return value;
    }

    /** {@code value}, which must be {@code min} or more. */
    public static long atLeast(String key, long value, long min) {
        if (value < min) {
            throw new InvalidPropertyException(key, "must be at least " + min + ", was " + value);
        }
        return value;
    }

    /** {@code value}, which must lie in {@code [min, max]}. */
    public static double between(String key, double value, double min, double max) {
        if (!(value >= min && value <= max)) {
            throw new InvalidPropertyException(key, "must be between " + number(min) + " and " + number(max) + ", was " + number(value));
        }
        return value;
    }

    /** {@code value}, which must be set and longer than zero. */
    public static Duration positive(String key, Duration value) {
        required(key, value);
        return check(key, value, v -> v.isPositive(), "must be positive, was " + value);
    }

    /** {@code value}, which must be set and larger than zero bytes. */
    public static DataSize positive(String key, DataSize value) {
        required(key, value);
        return check(key, value, v -> v.toBytes() > 0, "must be positive, was " + value);
    }

    /** {@code value}, which must pass {@code rule}; {@code otherwise} says what it broke ("must be …, was …"). */
    public static <T> T check(String key, T value, Predicate<T> rule, String otherwise) {
        if (!rule.test(value)) {
            throw new InvalidPropertyException(key, otherwise);
        }
        return value;
    }

    private static String number(double value) {
        return value == Math.rint(value) && !Double.isInfinite(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
