package dev.berth.driver.mock;

import java.time.Duration;

/** Blocks the calling thread; injected so tests can observe or skip blocking without real time passing. */
@FunctionalInterface
public interface Sleeper {

    Sleeper REAL = duration -> {
        if (!duration.isNegative() && !duration.isZero()) {
            Thread.sleep(duration);
        }
    };

    void sleep(Duration duration) throws InterruptedException;
}
