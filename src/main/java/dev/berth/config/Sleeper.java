package dev.berth.config;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Blocks the calling thread for a while; injected wherever code waits (restart delays, kill retries, device backoff and
 * polling, the mock driver's {@code start_block_for}, log following) so tests can observe or script the waits exactly
 * without real time passing. A wait may end early when its {@code cancel} future completes (a kill during a restart
 * delay, agent shutdown).
 */
@FunctionalInterface
public interface Sleeper {

    /**
     * Waits {@code duration} or until {@code cancel} completes, whichever is first; a non-positive duration does not wait.
     *
     * @param cancel ends the wait early when it completes; null when nothing cancels this wait
     * @return true if the whole duration elapsed, false if cancelled
     */
    boolean sleep(Duration duration, CompletableFuture<?> cancel) throws InterruptedException;

    /** Waits {@code duration}; nothing cancels it, but it may end by throwing {@link InterruptedException}. */
    default void sleep(Duration duration) throws InterruptedException {
        sleep(duration, null);
    }

    /** Real time: {@link Thread#sleep(Duration)}, or a timed wait on the cancel future. */
    static Sleeper system() {
        return SystemSleeper.INSTANCE;
    }

    /** The real-time sleeper. */
    final class SystemSleeper implements Sleeper {
        private static final SystemSleeper INSTANCE = new SystemSleeper();

        private SystemSleeper() {
        }

        @Override
        public boolean sleep(Duration duration, CompletableFuture<?> cancel) throws InterruptedException {
            if (cancel == null) {
                if (duration.isPositive()) {
                    Thread.sleep(duration);
                }
                return true;
            }
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
        }
    }
}
