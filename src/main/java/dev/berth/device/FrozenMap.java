package dev.berth.device;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A read-only, insertion-ordered map. The device package builds statistics maps that nobody else can reach and hands
 * them over with {@link #owning} instead of copying them again (the per-task lookup is on the stats read path).
 */
final class FrozenMap<K, V> extends AbstractMap<K, V> {

    private final Map<K, V> map;

    private FrozenMap(Map<K, V> map) {
        this.map = map;
    }

    /** Takes ownership of {@code map}: the caller must not keep or change it. */
    static <K, V> Map<K, V> owning(LinkedHashMap<K, V> map) {
        return new FrozenMap<>(map);
    }

    /** A frozen copy, or {@code map} itself when it already is one. */
    static <K, V> Map<K, V> copyOf(Map<K, V> map) {
        return map instanceof FrozenMap<K, V> frozen ? frozen : new FrozenMap<>(new LinkedHashMap<>(map));
    }

    @Override
    public V get(Object key) {
        return map.get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return map.containsKey(key);
    }

    @Override
    public int size() {
        return map.size();
    }

    @Override
    public Set<Entry<K, V>> entrySet() {
        return Collections.unmodifiableMap(map).entrySet();
    }
}
