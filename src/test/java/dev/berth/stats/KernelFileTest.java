package dev.berth.stats;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class KernelFileTest {

    private final CgroupFileBuffer buffer = new CgroupFileBuffer();

    @Test
    void keepsTheFileOpenAndReadsItAfreshFromTheStartEachTime(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("memory.usage_in_bytes");
        Files.writeString(file, "4096\n");
        KernelFile kernelFile = new KernelFile(file);
        int heldBefore = KernelFile.held();

        assertThat(kernelFile.readInto(buffer)).isTrue();
        assertThat(buffer.firstLong()).isEqualTo(4096);
        assertThat(KernelFile.held()).isEqualTo(heldBefore + 1);

        Files.writeString(file, "123456789\n"); // same inode, new content
        assertThat(kernelFile.readInto(buffer)).isTrue();
        assertThat(buffer.firstLong()).isEqualTo(123456789);

        kernelFile.close();
        assertThat(KernelFile.held()).isEqualTo(heldBefore);
        assertThat(kernelFile.readInto(buffer)).as("closed: nothing is read any more").isFalse();
    }

    @Test
    void readsFilesLargerThanTheBuffer(@TempDir Path tmp) throws Exception {
        StringBuilder stat = new StringBuilder();
        for (int i = 0; i < 800; i++) {
            stat.append("key_").append(i).append(' ').append(i).append('\n');
        }
        stat.append("total_rss 777\n");
        Path file = Files.writeString(tmp.resolve("memory.stat"), stat);
        try (KernelFile kernelFile = new KernelFile(file)) {
            assertThat(kernelFile.readInto(buffer)).isTrue();
            long[] out = new long[1];
            assertThat(buffer.scan(CgroupFileBuffer.keys("total_rss"), out)).isEqualTo(1);
            assertThat(out[0]).isEqualTo(777);
            assertThat(buffer.length()).isEqualTo(stat.length());
        }
    }

    @Test
    void aThreadsOwnBufferReadsThroughItsDirectBufferTheSameBytesAsAHeapBuffer(@TempDir Path tmp) throws Exception {
        StringBuilder stat = new StringBuilder();
        for (int i = 0; i < 800; i++) { // over 4 KB: the buffer (and its direct window) grows mid-read
            stat.append("key_").append(i).append(' ').append(i).append('\n');
        }
        stat.append("total_rss 777\n");
        Path file = Files.writeString(tmp.resolve("memory.stat"), stat);
        CgroupFileBuffer own = CgroupFileBuffer.forThisThread();
        assertThat(CgroupFileBuffer.forThisThread()).as("one per platform thread").isSameAs(own);
        try (KernelFile kernelFile = new KernelFile(file)) {
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

    @Test
    void aMissingFileIsNotReadAndHoldsNoDescriptor(@TempDir Path tmp) throws Exception {
        int heldBefore = KernelFile.held();
        try (KernelFile kernelFile = new KernelFile(tmp.resolve("gone"))) {
            assertThat(kernelFile.readInto(buffer)).isFalse();
            assertThat(KernelFile.held()).isEqualTo(heldBefore);
        }
    }

    @Test
    void theDescriptorAllowanceShrinksWithTheNumberOfTasks() {
        KernelFile.sampledTasks(0);
        long none = KernelFile.allowed();
        KernelFile.sampledTasks(100);
        try {
            assertThat(none).isPositive();
            assertThat(KernelFile.allowed()).isEqualTo(none - 100L * KernelFile.OWN_PER_TASK);
        } finally {
            KernelFile.sampledTasks(0);
        }
    }
}
