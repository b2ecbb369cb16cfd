package dev.berth.stats;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

import dev.berth.stats.TaskStatsTarget.TaskKey;

/**
 * One tick's snapshots as an immutable map: an array of this tick's snapshots laid out by a {@link Layout} (which task
 * is in which slot, which slots belong to which allocation) that is built only when tasks come or go and shared by
 * every tick in between. A tick in the steady state costs one array of references, not a hash map of a thousand
 * entries plus a by-allocation map rebuilt from it.
 *
 * <p>Every mutating method throws {@link UnsupportedOperationException} (those of {@link AbstractMap}, and the entry
 * set's iterator has no {@code remove}).
 */
final class PublishedSnapshots extends AbstractMap<TaskKey, TaskStatsSnapshot> {

    static final PublishedSnapshots EMPTY = new PublishedSnapshots(Layout.of(new TaskKey[0]), new TaskStatsSnapshot[0]);

    private final Layout layout;
    private final TaskStatsSnapshot[] values;
    private Set<Map.Entry<TaskKey, TaskStatsSnapshot>> entrySet;

    /** @param values one non-null snapshot per slot of {@code layout}; owned by this map from now on */
    PublishedSnapshots(Layout layout, TaskStatsSnapshot[] values) {
        if (values.length != layout.keys.length) {
            throw new IllegalArgumentException("one snapshot per slot expected");
        }
        this.layout = layout;
        this.values = values;
    }

    /** Which task is in which slot: the same object from one tick to the next while no task came or went. */
    Layout layout() {
        return layout;
    }

    /** The snapshot in slot {@code slot} ({@code 0 <= slot < size()}). */
    TaskStatsSnapshot valueAt(int slot) {
        return values[slot];
    }

    /** The snapshots of one allocation's tasks (immutable, a new list per call; empty when none). */
    List<TaskStatsSnapshot> ofAlloc(String allocId) {
        int[] slots = layout.byAlloc.get(allocId);
        if (slots == null) {
            return List.of();
        }
        if (slots.length == 1) {
            return List.of(values[slots[0]]);
        }
        TaskStatsSnapshot[] of = new TaskStatsSnapshot[slots.length];
        for (int i = 0; i < slots.length; i++) {
            of[i] = values[slots[i]];
        }
        return List.of(of);
    }

    @Override
    public TaskStatsSnapshot get(Object key) {
        Integer slot = layout.slots.get(key);
        return slot == null ? null : values[slot];
    }

    @Override
    public boolean containsKey(Object key) {
        return layout.slots.containsKey(key);
    }

    @Override
    public int size() {
        return values.length;
    }

    @Override
    public void forEach(BiConsumer<? super TaskKey, ? super TaskStatsSnapshot> action) {
        for (int i = 0; i < values.length; i++) {
            action.accept(layout.keys[i], values[i]);
        }
    }

    /** The snapshots in slot order, read straight from the array (no entry object per task). */
    @Override
    public Collection<TaskStatsSnapshot> values() {
        return Collections.unmodifiableList(Arrays.asList(values));
    }

    @Override
    public Set<Map.Entry<TaskKey, TaskStatsSnapshot>> entrySet() {
        Set<Map.Entry<TaskKey, TaskStatsSnapshot>> set = entrySet;
        if (set == null) {
            set = new AbstractSet<>() {
                @Override
                public Iterator<Map.Entry<TaskKey, TaskStatsSnapshot>> iterator() {
                    return new Iterator<>() {
                        private int next;

                        @Override
                        public boolean hasNext() {
                            return next < values.length;
                        }

                        @Override
                        public Map.Entry<TaskKey, TaskStatsSnapshot> next() {
                            if (next >= values.length) {
                                throw new NoSuchElementException();
                            }
                            int slot = next++;
                            return Map.entry(layout.keys[slot], values[slot]);
                        }
                    };
                }

                @Override
                public int size() {
                    return values.length;
                }
            };
            entrySet = set;
        }
        return set;
    }

    /** The slots of a set of tasks: built when tasks come or go, read by every tick until the next change. */
    static final class Layout {
        private final TaskKey[] keys;
        private final Map<TaskKey, Integer> slots;
        private final Map<String, int[]> byAlloc;

        private Layout(TaskKey[] keys, Map<TaskKey, Integer> slots, Map<String, int[]> byAlloc) {
            this.keys = keys;
            this.slots = slots;
            this.byAlloc = byAlloc;
        }

        /** A layout of {@code keys} in that order (no duplicates). */
        static Layout of(TaskKey[] keys) {
            Map<TaskKey, Integer> slots = new HashMap<>(Math.max(16, keys.length * 4 / 3 + 1));
            Map<String, List<Integer>> grouped = new HashMap<>();
            for (int i = 0; i < keys.length; i++) {
                if (slots.put(keys[i], i) != null) {
                    throw new IllegalArgumentException("duplicate task " + keys[i]);
                }
                grouped.computeIfAbsent(keys[i].allocId(), id -> new ArrayList<>(1)).add(i);
            }
            Map<String, int[]> byAlloc = new HashMap<>(Math.max(16, grouped.size() * 4 / 3 + 1));
            grouped.forEach((id, list) -> byAlloc.put(id, list.stream().mapToInt(Integer::intValue).toArray()));
            return new Layout(keys.clone(), Map.copyOf(slots), Map.copyOf(byAlloc));
        }

        int size() {
            return keys.length;
        }

        TaskKey keyAt(int slot) {
            return keys[slot];
        }
    }
}
