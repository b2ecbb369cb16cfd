package dev.berth.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.sun.jna.Native;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Freed C heap stays in the process's RSS until it is trimmed; the quiet look's trim gives it back. */
class NativeHeapTrimTest {

    private static final int BLOCKS = 256 * 1024;
    private static final int BLOCK = 256; // below glibc's mmap threshold: from the arena, not mmap'd one by one

    @Test
    void freedCHeapLeavesTheRssAtTheQuietLook() throws IOException {
        NativeHeapTrim trim = new NativeHeapTrim();
        assumeTrue(trim.available(), "glibc on 64-bit Linux");
        long[] blocks = new long[BLOCKS];
        for (int i = 0; i < BLOCKS; i++) {
            blocks[i] = Native.malloc(BLOCK);
            // touched, so the pages are resident
            new com.sun.jna.Pointer(blocks[i]).setMemory(0, BLOCK, (byte) 1);
        }
        long fence = Native.malloc(BLOCK); // above them: free() cannot give the top of the heap back by itself
        for (long block : blocks) {
            Native.free(block);
        }
        long before = rssAnonKb();

        trim.release();

        long released = before - rssAnonKb();
        Native.free(fence);
        assertThat(released).as("KB of RSS given back of the %d KB freed", (long) BLOCKS * BLOCK / 1024)
                .isGreaterThan((long) BLOCKS * BLOCK / 1024 / 2);
        assertThat(trim.available()).isTrue();
    }

    private static long rssAnonKb() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("RssAnon:")) {
                return Long.parseLong(line.replaceAll("\\D", ""));
            }
        }
        throw new IllegalStateException("no RssAnon in /proc/self/status");
    }
}
