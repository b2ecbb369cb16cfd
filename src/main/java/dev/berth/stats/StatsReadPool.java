package dev.berth.stats;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import dev.berth.config.ThreadNiceness;

/**
 * Runs one tick's task reads on a few low-priority platform threads.
 *
 * <p>Why not a virtual thread per read: the virtual threads share one scheduler with the API's request threads, so a
 * tick's thousand reads queued ahead of every request that arrived during the tick (the {@code /stats} p99 tail in
 * {@code docs/benchmarks-stats.md}). Here at most {@code parallelism} reads run at once, on threads at nice
 * {@link ThreadNiceness#BACKGROUND}, so a request thread wins the CPU whenever both are runnable.
 *
 * <p>A read that runs longer than {@code stuckAfter} (a hung cgroupfs, a D-state process) stops counting against the
 * parallelism: its thread is left blocked in it and another thread takes the next read, so a stuck read never holds up
 * the others. Threads are cached; in the steady state the pool has {@code parallelism} of them.
 */
final class StatsReadPool {

    private final int parallelism;
    private final long stuckAfterNanos;
    private final ExecutorService threads;

    StatsReadPool(int parallelism, Duration stuckAfter) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1");
        }
        this.parallelism = parallelism;
        this.stuckAfterNanos = Math.max(1, stuckAfter.toNanos());
        this.threads = Executors.newCachedThreadPool(ThreadNiceness.lowered(
                Thread.ofPlatform().name("berth-task-stats-read-", 0).daemon(true).factory(), ThreadNiceness.BACKGROUND));
    }

    /** One parallel read per core pair, between 1 and 4: sampling is a few small file reads per task. */
    static int defaultParallelism() {
        return Math.clamp(Runtime.getRuntime().availableProcessors() / 2, 1, 4);
    }

    /**
     * Runs {@code read} on every item, at most {@code parallelism} (not stuck) at once, and returns when all started
     * reads finished or {@code deadlineNanos} ({@link System#nanoTime()}) passed.
     *
     * @return the items not started before the deadline (the caller keeps their previous result)
     */
    <T> List<T> runAll(List<T> items, Consumer<T> read, long deadlineNanos) throws InterruptedException {
        Semaphore permits = new Semaphore(parallelism);
        Deque<Slot> running = new ArrayDeque<>();
        Iterator<T> next = items.iterator();
        while (next.hasNext()) {
            long now = System.nanoTime();
            if (now - deadlineNanos >= 0) {
                break;
            }
            if (!permits.tryAcquire(Math.min(stuckAfterNanos, deadlineNanos - now), TimeUnit.NANOSECONDS)) {
                freeStuck(running);
                continue;
            }
            T item = next.next();
            Slot slot = new Slot(permits);
            running.addLast(slot);
            try {
                threads.execute(() -> {
                    try {
                        read.accept(item);
                    } finally {
                        slot.finish();
                    }
                });
            } catch (RejectedExecutionException stopped) {
                slot.finish();
                running.removeLast();
                List<T> rest = new ArrayList<>(List.of(item));
                next.forEachRemaining(rest::add);
                return rest;
            }
        }
        List<T> notStarted = new ArrayList<>();
        next.forEachRemaining(notStarted::add);
        // wait for the started reads, never past the deadline
        for (Slot slot : running) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                break;
            }
            slot.finished.await(left, TimeUnit.NANOSECONDS);
        }
        return notStarted;
    }

    /** Releases the permits of reads running longer than {@code stuckAfter}; drops finished slots from the front. */
    private void freeStuck(Deque<Slot> running) {
        long now = System.nanoTime();
        running.removeIf(slot -> slot.finished.getCount() == 0);
        for (Slot slot : running) {
            if (now - slot.startedNanos >= stuckAfterNanos) {
                slot.releasePermit();
            }
        }
    }

    void shutdownNow() {
        threads.shutdownNow();
    }

    boolean isShutdown() {
        return threads.isShutdown();
    }

    private static final class Slot {
        final long startedNanos = System.nanoTime();
        final CountDownLatch finished = new CountDownLatch(1);
        private final AtomicBoolean permitHeld = new AtomicBoolean(true);
        private final Semaphore permits;

        Slot(Semaphore permits) {
            this.permits = permits;
        }

        void releasePermit() {
            if (permitHeld.compareAndSet(true, false)) {
                permits.release();
            }
        }

        void finish() {
            releasePermit();
            finished.countDown();
        }
    }
}
