package dev.berth.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Against the real kernel: the nice value lands on the calling thread only (field 19 of its {@code stat}). */
class ThreadNicenessTest {

    @Test
    void aLoweredFactorysThreadRunsNicedAndOtherThreadsDoNot() throws Exception {
        CompletableFuture<Integer> inside = new CompletableFuture<>();
        Thread thread = ThreadNiceness.lowered(Thread.ofPlatform().name("nice-test").factory(), 7)
                .newThread(() -> inside.complete(currentThreadNice()));
        thread.start();

        assertThat(inside.get(10, TimeUnit.SECONDS)).isEqualTo(7);
        assertThat(currentThreadNice()).isZero(); // the test thread itself is untouched
    }

    @Test
    void applyReportsSuccess() throws Exception {
        CompletableFuture<Boolean> applied = new CompletableFuture<>();
        Thread.ofPlatform().start(() -> applied.complete(ThreadNiceness.applyToCurrentThread(ThreadNiceness.BACKGROUND)));

        assertThat(applied.get(10, TimeUnit.SECONDS)).isTrue();
    }

    /** Field 19 of /proc/thread-self/stat, counted after the ")" that closes the command name. */
    private static int currentThreadNice() {
        try {
            String stat = Files.readString(Path.of("/proc/thread-self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(fields[19 - 3]);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
