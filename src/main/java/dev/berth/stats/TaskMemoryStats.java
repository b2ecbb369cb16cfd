package dev.berth.stats;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Memory of a task (or one of its processes) in bytes. A field that is not in {@link #fields()} was not read
 * and is 0 only because Nomad's JSON has no "absent": consumers must check {@link #isMeasured}.
 *
 * @param workingSet usage − inactive_file, floored at 0 (cAdvisor / docker stats), measured with {@link TaskMemoryField#WORKING_SET}
 * @param fields     what was really read in this sample
 */
public record TaskMemoryStats(long rss, long cache, long swap, long mappedFile, long usage, long maxUsage,
        long kernelUsage, long kernelMaxUsage, long workingSet, Set<TaskMemoryField> fields) {

    public static final TaskMemoryStats NONE = new TaskMemoryStats(0, 0, 0, 0, 0, 0, 0, 0, 0, Set.of());

    public TaskMemoryStats {
        fields = FieldSets.MEMORY.of(fields);
    }

    public boolean isMeasured(TaskMemoryField field) {
        return fields.contains(field);
    }

    /** Nomad's {@code Measured}: display names in Nomad's order, Berth-only fields left out. */
    public List<String> measured() {
        List<String> names = new ArrayList<>(fields.size());
        for (TaskMemoryField field : TaskMemoryField.values()) {
            if (field.nomadName() != null && fields.contains(field)) {
                names.add(field.nomadName());
            }
        }
        return List.copyOf(names);
    }

    /** The value of one field (0 when not measured). */
    public long get(TaskMemoryField field) {
        return switch (field) {
            case RSS -> rss;
            case CACHE -> cache;
            case SWAP -> swap;
            case MAPPED_FILE -> mappedFile;
            case USAGE -> usage;
            case MAX_USAGE -> maxUsage;
            case KERNEL_USAGE -> kernelUsage;
            case KERNEL_MAX_USAGE -> kernelMaxUsage;
            case WORKING_SET -> workingSet;
        };
    }

    /** Nomad's {@code MemoryStats.Add}: every field summed, measured sets united. */
    public TaskMemoryStats plus(TaskMemoryStats o) {
        EnumSet<TaskMemoryField> union = EnumSet.noneOf(TaskMemoryField.class);
        union.addAll(fields);
        union.addAll(o.fields);
        return new TaskMemoryStats(rss + o.rss, cache + o.cache, swap + o.swap, mappedFile + o.mappedFile, usage + o.usage,
                maxUsage + o.maxUsage, kernelUsage + o.kernelUsage, kernelMaxUsage + o.kernelMaxUsage, workingSet + o.workingSet, union);
    }

    /** Mutable collector for readers: set what was read, then {@link #build()}. Not thread-safe. */
    public static final class Builder {
        private final long[] values = new long[TaskMemoryField.values().length];
        /** The fields set so far, as bits of their ordinals (no {@code EnumSet} per sample). */
        private int fields;

        public Builder set(TaskMemoryField field, long value) {
            values[field.ordinal()] = value;
            fields |= 1 << field.ordinal();
            return this;
        }

        public Builder add(TaskMemoryField field, long value) {
            values[field.ordinal()] += value;
            fields |= 1 << field.ordinal();
            return this;
        }

        public boolean has(TaskMemoryField field) {
            return (fields >>> field.ordinal() & 1) != 0;
        }

        public long get(TaskMemoryField field) {
            return values[field.ordinal()];
        }

        /** Forgets everything set, so a reader can use one builder for all its samples. */
        Builder clear() {
            java.util.Arrays.fill(values, 0);
            fields = 0;
            return this;
        }

        /** Whether {@link #build()} would give a record equal to {@code stats} (built by a builder: canonical fields). */
        boolean sameAs(TaskMemoryStats stats) {
            long[] v = values;
            return stats.fields() == FieldSets.MEMORY.ofMask(fields) && v[TaskMemoryField.RSS.ordinal()] == stats.rss()
                    && v[TaskMemoryField.CACHE.ordinal()] == stats.cache() && v[TaskMemoryField.SWAP.ordinal()] == stats.swap()
                    && v[TaskMemoryField.MAPPED_FILE.ordinal()] == stats.mappedFile()
                    && v[TaskMemoryField.USAGE.ordinal()] == stats.usage() && v[TaskMemoryField.MAX_USAGE.ordinal()] == stats.maxUsage()
                    && v[TaskMemoryField.KERNEL_USAGE.ordinal()] == stats.kernelUsage()
                    && v[TaskMemoryField.KERNEL_MAX_USAGE.ordinal()] == stats.kernelMaxUsage()
                    && v[TaskMemoryField.WORKING_SET.ordinal()] == stats.workingSet();
        }

        public TaskMemoryStats build() {
            long[] v = values;
            return new TaskMemoryStats(v[TaskMemoryField.RSS.ordinal()], v[TaskMemoryField.CACHE.ordinal()],
                    v[TaskMemoryField.SWAP.ordinal()], v[TaskMemoryField.MAPPED_FILE.ordinal()], v[TaskMemoryField.USAGE.ordinal()],
                    v[TaskMemoryField.MAX_USAGE.ordinal()], v[TaskMemoryField.KERNEL_USAGE.ordinal()],
                    v[TaskMemoryField.KERNEL_MAX_USAGE.ordinal()], v[TaskMemoryField.WORKING_SET.ordinal()],
                    FieldSets.MEMORY.ofMask(fields));
        }
    }
}
