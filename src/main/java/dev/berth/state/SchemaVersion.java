package dev.berth.state;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A migration version compared as Flyway compares them: the text with {@code _} read as {@code .}, split into numbers
 * at each dot before a digit, trailing zero parts ignored ({@code 1.0} is {@code 1}). Only plain numeric versions are
 * understood; anything else is left to Flyway.
 *
 * @param text  the version as written, {@code _} replaced by {@code .}
 * @param parts its numbers, without trailing zeros
 */
record SchemaVersion(String text, List<BigInteger> parts) implements Comparable<SchemaVersion> {

    private static final Pattern SPLIT = Pattern.compile("\\.(?=\\d)");

    SchemaVersion {
        parts = List.copyOf(parts);
    }

    /** The version of {@code text}, empty when it is not made of numbers and dots. */
    static Optional<SchemaVersion> parse(String text) {
        if (text == null || text.isEmpty()) {
            return Optional.empty();
        }
        String normalized = text.replace('_', '.');
        List<BigInteger> parts = new ArrayList<>();
        for (String part : SPLIT.split(normalized, -1)) {
            if (part.isEmpty() || !part.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return Optional.empty();
            }
            parts.add(new BigInteger(part));
        }
        while (parts.size() > 1 && parts.getLast().signum() == 0) {
            parts.removeLast();
        }
        return Optional.of(new SchemaVersion(normalized, parts));
    }

    @Override
    public int compareTo(SchemaVersion other) {
        for (int i = 0; i < Math.max(parts.size(), other.parts.size()); i++) {
            int compared = part(i).compareTo(other.part(i));
            if (compared != 0) {
                return compared;
            }
        }
        return 0;
    }

    private BigInteger part(int i) {
        return i < parts.size() ? parts.get(i) : BigInteger.ZERO;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SchemaVersion version && parts.equals(version.parts);
    }

    @Override
    public int hashCode() {
        return parts.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
