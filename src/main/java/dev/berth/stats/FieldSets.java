package dev.berth.stats;

import java.util.AbstractSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The immutable "what was measured" sets of the stats records, one shared instance per combination of fields: every
 * sample of every task measures the same few combinations, so a record takes the canonical set instead of copying the
 * reader's set into a new one (three records per task per tick).
 *
 * <p>A canonical set is a bit mask of the enum's ordinals: {@link #of} recognises one at once (a record built from
 * another record's set, or from {@link #ofMask}), and its {@code contains} is a bit test. The per-task read path builds
 * masks, never {@code EnumSet}s.
 */
final class FieldSets<E extends Enum<E>> {

    static final FieldSets<TaskMemoryField> MEMORY = new FieldSets<>(TaskMemoryField.class);
    static final FieldSets<TaskCpuField> CPU = new FieldSets<>(TaskCpuField.class);

    private final E[] constants;
    private final AtomicReferenceArray<Canonical<E>> byMask;

    private FieldSets(Class<E> type) {
        this.constants = type.getEnumConstants();
        if (constants.length > 16) {
            throw new IllegalArgumentException(type + " has too many constants for a table of its sets");
        }
        this.byMask = new AtomicReferenceArray<>(1 << constants.length);
    }

    /** An immutable set with the elements of {@code fields} (always the same instance for the same elements). */
    Set<E> of(Set<E> fields) {
        if (fields instanceof Canonical<?> canonical && canonical.owner == this) {
            return fields;
        }
        int mask = 0;
        for (E field : constants) { // contains() instead of an iterator: nothing allocated per record
            if (fields.contains(field)) {
                mask |= 1 << field.ordinal();
            }
        }
        return ofMask(mask);
    }

    /** The canonical set of the fields whose ordinals are the set bits of {@code mask}. */
    Set<E> ofMask(int mask) {
        if (mask < 0 || mask >= byMask.length()) {
            throw new IllegalArgumentException("no such fields: " + Integer.toBinaryString(mask));
        }
        Canonical<E> set = byMask.get(mask);
        if (set == null) {
            byMask.compareAndSet(mask, null, new Canonical<>(this, mask));
            set = byMask.get(mask);
        }
        return set;
    }

    /** An immutable set of some of the enum's constants, as the bits of their ordinals; iterates in ordinal order. */
    private static final class Canonical<E extends Enum<E>> extends AbstractSet<E> {
        private final FieldSets<E> owner;
        private final int mask;
        private final int size;

        Canonical(FieldSets<E> owner, int mask) {
            this.owner = owner;
            this.mask = mask;
            this.size = Integer.bitCount(mask);
        }

        @Override
        public boolean contains(Object o) {
            if (!(o instanceof Enum<?> e)) {
                return false;
            }
            int ordinal = e.ordinal();
            return ordinal < owner.constants.length && owner.constants[ordinal] == e && (mask >>> ordinal & 1) != 0;
        }

        @Override
        public int size() {
            return size;
        }

        @Override
        public boolean isEmpty() {
            return mask == 0;
        }

        @Override
        public Iterator<E> iterator() {
            return new Iterator<>() {
                private int left = mask;

                @Override
                public boolean hasNext() {
                    return left != 0;
                }

                @Override
                public E next() {
                    if (left == 0) {
                        throw new NoSuchElementException();
                    }
                    int ordinal = Integer.numberOfTrailingZeros(left);
                    left &= left - 1;
                    return owner.constants[ordinal];
                }
            };
        }
    }
}
