package dev.berth.stats;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class KernelFileTest {

    private final CgroupFileBuffer buffer = new CgroupFileBuffer();
    private final DescriptorBudget budget = DescriptorBudget.ofProcessLimit();

    @ParameterizedTest(name = "native reads: {0}")
    @ValueSource(booleans = {false, true})
    void keepsTheFileOpenAndReadsItAfreshFromTheStartEachTime(boolean nativeReads, @TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("memory.usage_in_bytes");
        Files.writeString(file, "4096\n");
        KernelFile kernelFile = kernelFile(file, nativeReads);
        int heldBefore = budget.held();

        assertThat(kernelFile.readInto(buffer)).isTrue();
        assertThat(buffer.firstLong()).isEqualTo(4096);
        assertThat(budget.held()).isEqualTo(heldBefore + 1);

        Files.writeString(file, "123456789\n"); // same inode, new content
        assertThat(kernelFile.readInto(buffer)).isTrue();
        assertThat(buffer.firstLong()).isEqualTo(123456789);

        kernelFile.close();
        assertThat(budget.held()).isEqualTo(heldBefore);
        assertThat(kernelFile.readInto(buffer)).as("closed: nothing is read any more").isFalse();
    }

    @ParameterizedTest(name = "native reads: {0}")
    @ValueSource(booleans = {false, true})
    void readsFilesLargerThanTheBuffer(boolean nativeReads, @TempDir Path tmp) throws Exception {
        StringBuilder stat = new StringBuilder();
        for (int i = 0; i < 800; i++) {
            stat.append("key_").append(i).append(' ').append(i).append('\n');
        }
        stat.append("total_rss 777\n");
        Path file = Files.writeString(tmp.resolve("memory.stat"), stat);
        try (KernelFile kernelFile = kernelFile(file, nativeReads)) {
            assertThat(kernelFile.readInto(buffer)).isTrue();
            long[] out = new long[1];
            assertThat(buffer.scan(CgroupFileBuffer.keys("total_rss"), out)).isEqualTo(1);
            assertThat(out[0]).isEqualTo(777);
            assertThat(buffer.length()).isEqualTo(stat.length());
        }
    }

    @ParameterizedTest(name = "native reads: {0}")
    @ValueSource(booleans = {false, true})
    void aThreadsOwnBufferReadsThroughItsDirectBufferTheSameBytesAsAHeapBuffer(boolean nativeReads, @TempDir Path tmp) throws Exception {
        StringBuilder stat = new StringBuilder();
        for (int i = 0; i < 800; i++) { // over 4 KB: the buffer (and its direct window) grows mid-read
            stat.append("key_").append(i).append(' ').append(i).append('\n');
        }
        stat.append("total_rss 777\n");
        Path file = Files.writeString(tmp.resolve("memory.stat"), stat);
        CgroupFileBuffer own = CgroupFileBuffer.forThisThread();
        assertThat(CgroupFileBuffer.forThisThread()).as("one per platform thread").isSameAs(own);
        try (KernelFile kernelFile = kernelFile(file, nativeReads)) {
            for (int round = 0; round < 2; round++) { // the second read reuses the grown buffers
                assertThat(kernelFile.readInto(own)).isTrue();
                assertThat(kernelFile.readInto(buffer)).isTrue();
                assertThat(own.length()).isEqualTo(stat.length()).isEqualTo(buffer.length());
                long[] out = new long[1];
                assertThat(own.scan(CgroupFileBuffer.keys("total_rss"), out)).isEqualTo(1);
                assertThat(out[0]).isEqualTo(777);
            }
            Files.writeString(file, "5\n"); // shorter content: nothing of the longer read is left over
            assertThat(kernelFile.readInto(own)).isTrue();
            assertThat(own.length()).isEqualTo(2);
            assertThat(own.firstLong()).isEqualTo(5);
        }
    }

    @Test
    void aVirtualThreadGetsAFreshBufferEachTime() throws Exception {
        CgroupFileBuffer[] seen = new CgroupFileBuffer[2];
        Thread.ofVirtual().start(() -> {
            seen[0] = CgroupFileBuffer.forThisThread();
            seen[1] = CgroupFileBuffer.forThisThread();
        }).join();
        assertThat(seen[0]).isNotNull().isNotSameAs(seen[1]).isNotSameAs(CgroupFileBuffer.forThisThread());
    }

    @ParameterizedTest(name = "native reads: {0}")
    @ValueSource(booleans = {false, true})
    void aMissingFileIsNotReadAndHoldsNoDescriptor(boolean nativeReads, @TempDir Path tmp) throws Exception {
        int heldBefore = budget.held();
        try (KernelFile kernelFile = kernelFile(tmp.resolve("gone"), nativeReads)) {
            assertThat(kernelFile.readInto(buffer)).isFalse();
            assertThat(budget.held()).isEqualTo(heldBefore);
        }
    }

    @Test
    void theDescriptorAllowanceShrinksWithTheNumberOfTasks() {
        budget.sampledTasks(0);
        long none = budget.allowed();
        budget.sampledTasks(100);
        try {
            assertThat(none).isPositive();
            assertThat(budget.allowed()).isEqualTo(none - 100L * DescriptorBudget.OWN_PER_TASK);
        } finally {
            budget.sampledTasks(0);
        }
    }

    @Test
    void onJava22AndLaterKernelFilesAreReadThroughTheForeignFunctionCall() {
        assumeTrue(Runtime.version().feature() >= 22, "the final foreign function API needs Java 22");
        assertThat(NativePread.AVAILABLE).isTrue();
    }

    @Test
    void aNativeDescriptorIsCloseOnExecAndGivenBackOnClose(@TempDir Path tmp) throws Exception {
        Path file = Files.writeString(tmp.resolve("cpu.stat"), "nr_periods 0\n");
        KernelFile kernelFile = kernelFile(file, true);
        assertThat(kernelFile.readInto(buffer)).isTrue();
        int fd = kernelFile.descriptor();
        assertThat(fd).isNotNegative();
        // fdinfo's flags are octal; O_CLOEXEC is 02000000: a task process must never inherit a stats descriptor
        String flags = Files.readAllLines(Path.of("/proc/self/fdinfo/" + fd)).stream().filter(l -> l.startsWith("flags:"))
                .findFirst().orElseThrow().substring("flags:".length()).trim();
        assertThat(Long.parseLong(flags, 8) & 02000000L).isNotZero();
        assertThat(Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd))).isEqualTo(file);
        kernelFile.close();
        assertThat(kernelFile.descriptor()).isEqualTo(-1);
    }

    @ParameterizedTest(name = "native reads: {0}")
    @ValueSource(booleans = {false, true})
    void aFileThatCannotBeReadAnyMoreIsClosedAndReportedGone(boolean nativeReads, @TempDir Path tmp) throws Exception {
        // a directory opens but every read fails (EISDIR), as a removed cgroup's kept-open files fail with ENODEV
        int heldBefore = budget.held();
        try (KernelFile kernelFile = kernelFile(tmp, nativeReads)) {
            assertThat(kernelFile.readInto(buffer)).isFalse();
            assertThat(budget.held()).isEqualTo(heldBefore);
            assertThat(kernelFile.descriptor()).isEqualTo(-1);
        }
    }

    private KernelFile kernelFile(Path path, boolean nativeReads) {
        if (nativeReads) {
            assumeTrue(NativePread.AVAILABLE, "foreign-function reads need Java 22+ on 64-bit Linux");
        }
        return new KernelFile(path, budget, nativeReads);
    }
}
