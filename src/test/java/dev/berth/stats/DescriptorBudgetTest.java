package dev.berth.stats;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The agent's descriptor budget, and kernel files that keep their descriptor only while it allows. */
class DescriptorBudgetTest {

    /** A limit whose reserve is the 1,024 minimum: two descriptors are left for kernel files. */
    private static final long LIMIT = 1_026;

    private final CgroupFileBuffer buffer = new CgroupFileBuffer();

    @Test
    void theAllowanceIsTheLimitLessTheReserveLessEachSampledTasksOwnDescriptors() {
        DescriptorBudget budget = new DescriptorBudget(LIMIT);
        assertThat(budget.allowed()).isEqualTo(2);
        budget.sampledTasks(1);
        assertThat(budget.allowed()).isEqualTo(2 - DescriptorBudget.OWN_PER_TASK);
        assertThat(new DescriptorBudget(80_000).allowed()).as("an eighth reserved when that is more")
                .isEqualTo(80_000 - 10_000);
    }

    @Test
    void holdsAreRefusedPastTheAllowanceAndCountNothingWhenRefused() {
        DescriptorBudget budget = new DescriptorBudget(LIMIT);
        assertThat(budget.tryHold()).isTrue();
        assertThat(budget.tryHold()).isTrue();
        assertThat(budget.tryHold()).isFalse();
        assertThat(budget.held()).isEqualTo(2);
        assertThat(budget.overdrawn()).isFalse();

        budget.sampledTasks(1);
        assertThat(budget.overdrawn()).isTrue();
        budget.release();
        budget.release();
        assertThat(budget.held()).isZero();
    }

    @Test
    void aFileOverBudgetIsReadByOpeningItEachTimeAndAFileKeptOpenGivesItsDescriptorBackWhenTasksArrive(
            @TempDir Path tmp) throws Exception {
        DescriptorBudget budget = new DescriptorBudget(LIMIT - 1); // one descriptor for kernel files
        Path a = Files.writeString(tmp.resolve("memory.usage_in_bytes"), "11\n");
        Path b = Files.writeString(tmp.resolve("cpuacct.usage"), "22\n");
        try (KernelFile kept = new KernelFile(a, budget, false); KernelFile perRead = new KernelFile(b, budget, false)) {
            assertThat(kept.readInto(buffer)).isTrue();
            assertThat(buffer.firstLong()).isEqualTo(11);
            assertThat(perRead.readInto(buffer)).isTrue();
            assertThat(buffer.firstLong()).isEqualTo(22);
            assertThat(budget.held()).as("only the first file holds a descriptor").isEqualTo(1);

            budget.sampledTasks(1); // a task arrived: nothing is left for kernel files
            assertThat(kept.readInto(buffer)).isTrue();
            assertThat(buffer.firstLong()).isEqualTo(11);
            assertThat(budget.held()).isZero();
        }
        assertThat(budget.held()).isZero();
    }
}
