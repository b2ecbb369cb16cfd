package dev.berth.stats;

import java.util.EnumSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FieldSetsTest {

    @Test
    void theSameFieldsGiveTheSameImmutableSetWhateverTheSetTheyCameIn() {
        Set<TaskMemoryField> fromEnumSet = FieldSets.MEMORY.of(EnumSet.of(TaskMemoryField.RSS, TaskMemoryField.USAGE));
        Set<TaskMemoryField> fromSetOf = FieldSets.MEMORY.of(Set.of(TaskMemoryField.USAGE, TaskMemoryField.RSS));

        assertThat(fromSetOf).isSameAs(fromEnumSet).containsExactlyInAnyOrder(TaskMemoryField.RSS, TaskMemoryField.USAGE);
        assertThat(FieldSets.MEMORY.of(Set.of(TaskMemoryField.RSS))).isEqualTo(Set.of(TaskMemoryField.RSS)).isNotSameAs(fromEnumSet);
        assertThat(FieldSets.CPU.of(EnumSet.noneOf(TaskCpuField.class))).isEmpty();
        assertThatThrownBy(() -> fromEnumSet.add(TaskMemoryField.CACHE)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void recordsTakeTheSharedSetAndStayIndependentOfTheReadersSet() {
        EnumSet<TaskCpuField> read = EnumSet.of(TaskCpuField.PERCENT, TaskCpuField.USER_MODE);
        TaskCpuTimes a = new TaskCpuTimes(1, 1, 0, 0, 0, read);
        read.add(TaskCpuField.SYSTEM_MODE); // a reader reusing its set must not change a published record
        TaskCpuTimes b = new TaskCpuTimes(2, 2, 0, 0, 0, EnumSet.of(TaskCpuField.USER_MODE, TaskCpuField.PERCENT));

        assertThat(a.fields()).isSameAs(b.fields()).containsExactlyInAnyOrder(TaskCpuField.PERCENT, TaskCpuField.USER_MODE);
        assertThat(a.isMeasured(TaskCpuField.SYSTEM_MODE)).isFalse();
    }

    @Test
    void aMaskGivesTheSameCanonicalSetWhichBehavesAsAnImmutableSet() {
        int mask = 1 << TaskMemoryField.RSS.ordinal() | 1 << TaskMemoryField.WORKING_SET.ordinal() | 1 << TaskMemoryField.USAGE.ordinal();
        Set<TaskMemoryField> fromMask = FieldSets.MEMORY.ofMask(mask);
        EnumSet<TaskMemoryField> expected = EnumSet.of(TaskMemoryField.RSS, TaskMemoryField.USAGE, TaskMemoryField.WORKING_SET);

        assertThat(fromMask).isSameAs(FieldSets.MEMORY.of(expected)).isSameAs(FieldSets.MEMORY.of(fromMask))
                .containsExactly(TaskMemoryField.RSS, TaskMemoryField.USAGE, TaskMemoryField.WORKING_SET) // ordinal order
                .hasSize(3).isEqualTo(expected).hasSameHashCodeAs(expected);
        assertThat(expected).isEqualTo(fromMask);
        assertThat(fromMask.contains(TaskMemoryField.CACHE)).isFalse();
        assertThat(fromMask.contains(TaskCpuField.values()[TaskMemoryField.RSS.ordinal()])).as("another enum's constant").isFalse();
        assertThat(fromMask.contains("RSS")).isFalse();
        assertThat(FieldSets.MEMORY.ofMask(0)).isEmpty();
        assertThatThrownBy(() -> fromMask.remove(TaskMemoryField.RSS)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(fromMask::clear).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> FieldSets.MEMORY.ofMask(1 << TaskMemoryField.values().length)).isInstanceOf(IllegalArgumentException.class);
    }
}
