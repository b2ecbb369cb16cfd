package dev.berth.stats;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StatsReadPoolTest {

    private final StatsReadPool pool = new StatsReadPool(2, Duration.ofMillis(50));
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void tearDown() {
        release.countDown();
        pool.shutdownNow();
    }

    @Test
    void everyReadRunsOnceOnNoMoreThreadsThanTheParallelism() throws Exception {
        List<Integer> items = IntStream.range(0, 1000).boxed().toList();
        Set<Integer> read = ConcurrentHashMap.newKeySet();
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        AtomicInteger calls = new AtomicInteger();

        List<Integer> notStarted = pool.runAll(items, item -> {
            calls.incrementAndGet();
            read.add(item);
            threads.add(Thread.currentThread());
        }, System.nanoTime() + TimeUnit.SECONDS.toNanos(30));

        assertThat(notStarted).isEmpty();
        assertThat(calls).hasValue(1000);
        assertThat(read).hasSize(1000);
        // the workers take reads from a shared cursor: no thread per read, no hand-off per read
        assertThat(threads).hasSizeLessThanOrEqualTo(2);
    }

    @Test
    void aStuckReadLetsAnotherWorkerTakeTheRestAndIsNotReturnedAsNotStarted() throws Exception {
        StatsReadPool one = new StatsReadPool(1, Duration.ofMillis(20));
        try {
            Set<Integer> read = ConcurrentHashMap.newKeySet();
            List<Integer> notStarted = one.runAll(List.of(0, 1, 2, 3), item -> {
                if (item == 0) {
                    awaitRelease();
                }
                read.add(item);
            }, System.nanoTime() + TimeUnit.SECONDS.toNanos(30));

            assertThat(notStarted).isEmpty();
            assertThat(read).containsExactlyInAnyOrder(1, 2, 3); // item 0 still hangs, in the background
        } finally {
            one.shutdownNow();
        }
    }

    @Test
    void readsNotStartedByTheDeadlineAreReturned() throws Exception {
        StatsReadPool one = new StatsReadPool(1, Duration.ofSeconds(10));
        try {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
            List<Integer> notStarted = one.runAll(List.of(0, 1, 2), item -> awaitRelease(), deadline);

            // one worker, stuck only after 10 s: the first read holds it past the deadline, the other two never start
            assertThat(notStarted).containsExactly(1, 2);
        } finally {
            one.shutdownNow();
        }
    }

    private void awaitRelease() {
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
