package dev.berth.stats;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import dev.berth.host.ThreadNiceness;

/**
 * Runs one tick's task reads on a few low-priority platform threads.
 *
 * <p>Why not a virtual thread per read: the virtual threads share one scheduler with the API's request threads, so a
 * tick's thousand reads queued ahead of every request that arrived during the tick (the {@code /stats} p99 tail in
 * {@code docs/benchmarks/stats.md}). Here at most {@code parallelism} reads run at once, on threads at nice
 * {@link ThreadNiceness#BACKGROUND}, so a request thread wins the CPU whenever both are runnable.
 *
 * <p>Each of the tick's workers takes the next read from a shared cursor and goes on until none is left: a tick costs
 * a handful of thread wake-ups, not two per task (handing each read to a thread and waiting for it costs two context
 * switches per task per tick, more CPU than the Java side of the reads themselves).
 *
 * <p>A read that runs longer than {@code stuckAfter} (a hung cgroupfs, a D-state process) stops counting against the
 * parallelism: its worker is left blocked in it and a new worker takes the next read, so a stuck read never holds up
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
        Tick<T> tick = new Tick<>(items, read);
        try {
            for (int i = 0; i < Math.min(parallelism, items.size()); i++) {
                tick.startWorker();
            }
            while (!tick.finished()) {
                long now = System.nanoTime();
                if (now - deadlineNanos >= 0) {
                    break;
                }
                tick.awaitProgress(Math.min(stuckAfterNanos, deadlineNanos - now));
                // a worker stuck in one read no longer counts: another takes the reads still waiting
                int stuck = tick.markStuck(System.nanoTime() - stuckAfterNanos);
                for (int i = 0; i < stuck && tick.hasWaiting(); i++) {
                    tick.startWorker();
                }
            }
        } catch (RejectedExecutionException stopped) {
            // the pool was shut down (the collector stops): what was not started is returned below
        }
        return tick.close();
    }

    void shutdownNow() {
        threads.shutdownNow();
    }

    boolean isShutdown() {
        return threads.isShutdown();
    }

    /** One tick's reads: a cursor the workers share and what the coordinator needs to know of them. */
    private final class Tick<T> {
        private final List<T> items;
        private final Consumer<T> read;
        private final AtomicInteger cursor = new AtomicInteger();
        private final List<Worker> workers = new ArrayList<>();
        private final Semaphore progress = new Semaphore(0);
        private volatile boolean closed;

        Tick(List<T> items, Consumer<T> read) {
            this.items = items;
            this.read = read;
        }

        void startWorker() {
            Worker worker = new Worker();
            workers.add(worker);
            try {
                threads.execute(worker);
            } catch (RejectedExecutionException stopped) {
                workers.remove(worker);
                throw stopped;
            }
        }

        boolean hasWaiting() {
            return cursor.get() < items.size();
        }

        /** All reads taken, and every worker not marked stuck has ended. */
        boolean finished() {
            if (hasWaiting()) {
                return false;
            }
            for (Worker worker : workers) {
                if (!worker.ended && !worker.stuck) {
                    return false;
                }
            }
            return true;
        }

        void awaitProgress(long nanos) throws InterruptedException {
            if (progress.tryAcquire(nanos, TimeUnit.NANOSECONDS)) {
                progress.drainPermits();
            }
        }

        /** Marks the workers whose current read started before {@code startedBefore}; returns how many were new. */
        int markStuck(long startedBefore) {
            int marked = 0;
            for (Worker worker : workers) {
                long started = worker.readStarted;
                if (!worker.stuck && !worker.ended && started != 0 && started - startedBefore <= 0) {
                    worker.stuck = true;
                    marked++;
                }
            }
            return marked;
        }

        /** Stops handing out reads; returns those never started. */
        List<T> close() {
            closed = true;
            int taken = cursor.getAndSet(Integer.MAX_VALUE / 2);
            return taken >= items.size() ? List.of() : new ArrayList<>(items.subList(taken, items.size()));
        }

        private final class Worker implements Runnable {
            volatile long readStarted;
            volatile boolean stuck;
            volatile boolean ended;

            @Override
            public void run() {
                try {
                    while (!closed && !stuck) {
                        int index = cursor.getAndIncrement();
                        if (index >= items.size()) {
                            break;
                        }
                        readStarted = System.nanoTime() | 1; // never 0: 0 means "between reads"
                        try {
                            read.accept(items.get(index));
                        } finally {
                            readStarted = 0;
                        }
                    }
                } finally {
                    ended = true;
                    progress.release();
                }
            }
        }
    }
}
