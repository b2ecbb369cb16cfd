package dev.berth.alloc.gc;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Runs {@link AllocGarbageCollector#collect()} every {@code berth.gc.interval} on one thread ({@code berth-gc}). A pass
 * catches everything, so the schedule always re-arms. Started after the allocs were restored, stopped before the alloc
 * runners shut down (a higher phase stops first).
 */
final class GcScheduler implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(GcScheduler.class);

    private final AllocGarbageCollector gc;
    private final Duration interval;
    private volatile ScheduledExecutorService executor;

    GcScheduler(AllocGarbageCollector gc, Duration interval) {
        this.gc = gc;
        this.interval = interval;
    }

    @Override
    public void start() {
        ScheduledExecutorService exec = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().name("berth-gc")
                .daemon(true).unstarted(r));
        exec.scheduleWithFixedDelay(this::tick, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        executor = exec;
    }

    private void tick() {
        try {
            gc.collect();
        } catch (Throwable t) { // re-arm whatever happened: a thrown exception would cancel the schedule
            log.error("garbage collection tick failed", t);
        }
    }

    @Override
    public void stop() {
        ScheduledExecutorService exec = executor;
        executor = null;
        if (exec != null) {
            exec.shutdownNow();
            try {
                exec.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return executor != null;
    }

    @Override
    public int getPhase() {
        return 10;
    }
}
