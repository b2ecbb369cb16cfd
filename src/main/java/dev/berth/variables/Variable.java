package dev.berth.variables;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A variable as its readers see it (Nomad's {@code VariableDecrypted}): its metadata and its items in clear. Never
 * stored like this; the store holds the items sealed ({@link VariableCipher}).
 *
 * @param items the key/value pairs, sorted by key; empty for a variable made only to hold a lock
 */
public record Variable(VariableMeta meta, Map<String, String> items) {

    public Variable {
        Objects.requireNonNull(meta, "'meta' must not be null");
        items = Collections.unmodifiableSortedMap(new TreeMap<>(items == null ? Map.of() : items));
    }

    /** A conflict's answer when the current value may not be shown, or there is none: namespace and path only. */
    public static Variable zero(String namespace, String path) {
        return new Variable(VariableMeta.zero(namespace, path), Map.of());
    }
}
