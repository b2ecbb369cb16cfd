package dev.berth.device;

import java.time.Duration;

/** Waits; injected so backoff and polling are tested exactly without real sleeps. */
@FunctionalInterface
public interface Sleeper {

    void sleep(Duration duration) throws InterruptedException;

    /** Real sleeping ({@link Thread#sleep(Duration)}), interruptible. */
    static Sleeper system() {
        return Thread::sleep;
    }
}
