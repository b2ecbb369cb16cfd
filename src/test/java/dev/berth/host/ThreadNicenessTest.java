package dev.berth.host;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Against the real kernel: the nice value lands on the calling thread only (field 19 of its {@code stat}). */
class ThreadNicenessTest {

    @Test
    void aLoweredFactorysThreadRunsNicedAndOtherThreadsDoNot() throws Exception {
        int before = ThreadNiceness.currentThreadNice(); // 0 normally; CI may run the build niced already
        int target = Math.min(19, before + 3);
        CompletableFuture<Integer> inside = new CompletableFuture<>();
        Thread thread = ThreadNiceness.lowered(Thread.ofPlatform().name("nice-test").factory(), target)
                .newThread(() -> inside.complete(niceOrFail()));
        thread.start();

        assertThat(inside.get(10, TimeUnit.SECONDS)).isEqualTo(target);
        assertThat(ThreadNiceness.currentThreadNice()).isEqualTo(before); // the test thread itself is untouched
    }

    @Test
    void itOnlyEverLowersPriority() throws Exception {
        CompletableFuture<int[]> seen = new CompletableFuture<>();
        Thread.ofPlatform().start(() -> {
            int first = ThreadNiceness.applyToCurrentThread(15) ? niceOrFail() : -100;
            boolean second = ThreadNiceness.applyToCurrentThread(ThreadNiceness.BACKGROUND); // 10 < 15: kept at 15
            seen.complete(new int[] {first, second ? 1 : 0, niceOrFail()});
        });

        assertThat(seen.get(10, TimeUnit.SECONDS)).containsExactly(Math.max(15, ThreadNiceness.currentThreadNice()), 1,
                Math.max(15, ThreadNiceness.currentThreadNice()));
    }

    private static int niceOrFail() {
        try {
            return ThreadNiceness.currentThreadNice();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
