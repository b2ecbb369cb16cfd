package dev.berth.stats;

import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The immutable "what was measured" sets of the stats records, one shared instance per combination of fields: every
 * sample of every task measures the same few combinations, so a record takes the canonical set instead of copying the
 * reader's set into a new one (three records per task per tick).
 */
final class FieldSets<E extends Enum<E>> {

    static final FieldSets<TaskMemoryField> MEMORY = new FieldSets<>(TaskMemoryField.class);
    static final FieldSets<TaskCpuField> CPU = new FieldSets<>(TaskCpuField.class);

    private final E[] constants;
    private final AtomicReferenceArray<Set<E>> byMask;

    private FieldSets(Class<E> type) {
        this.constants = type.getEnumConstants();
        if (constants.length > 16) {
            throw new IllegalArgumentException(type + " has too many constants for a table of its sets");
        }
        this.byMask = new AtomicReferenceArray<>(1 << constants.length);
    }

    /** An immutable set with the elements of {@code fields} (always the same instance for the same elements). */
    Set<E> of(Set<E> fields) {
        if (fields.isEmpty()) {
            return Set.of();
        }
        int mask = 0;
        for (E field : constants) { // contains() instead of an iterator: nothing allocated per record
            if (fields.contains(field)) {
                mask |= 1 << field.ordinal();
            }
        }
        Set<E> set = byMask.get(mask);
        if (set == null) {
            byMask.compareAndSet(mask, null, Set.copyOf(EnumSet.copyOf(fields)));
            set = byMask.get(mask);
        }
        return set;
    }
}
