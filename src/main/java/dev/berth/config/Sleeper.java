package dev.berth.config;

import java.time.Duration;

/**
 * Blocks the calling thread for a while; injected wherever code waits (device backoff and polling, the mock driver's
 * {@code start_block_for}, log following) so tests can observe or script the waits exactly without real time passing.
 * Waits that must also end early on cancellation use {@code dev.berth.alloc.task.Sleeper} instead.
 */
@FunctionalInterface
public interface Sleeper {

    /** Waits {@code duration}; may return early only by throwing. */
    void sleep(Duration duration) throws InterruptedException;

    /** Real sleeping ({@link Thread#sleep(Duration)}), interruptible; a non-positive duration does not wait. */
    static Sleeper system() {
        return Thread::sleep;
    }
}
