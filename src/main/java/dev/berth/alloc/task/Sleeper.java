package dev.berth.alloc.task;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Interruptible waiting, injected so runner tests can assert exact delays without real sleeps. */
@FunctionalInterface
public interface Sleeper {

    /**
     * Waits {@code duration} or until {@code cancel} completes, whichever is first.
     *
     * @return true if the whole duration elapsed, false if cancelled
     */
    boolean sleep(Duration duration, CompletableFuture<?> cancel) throws InterruptedException;

    /** Real time: a timed wait on the cancel future. */
    Sleeper REAL = (duration, cancel) -> {
        if (cancel.isDone()) {
            return false;
        }
        try {
            cancel.get(Math.max(0, duration.toNanos()), TimeUnit.NANOSECONDS);
            return false;
        } catch (TimeoutException e) {
            return true;
        } catch (ExecutionException e) {
            return false;
        }
    };
}
