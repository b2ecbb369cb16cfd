package dev.berth.device;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;

import dev.berth.config.Sleeper;

/**
 * Records every requested sleep and blocks until the test lets it pass ({@link #proceed}), so backoff delays are
 * asserted exactly and a failing plugin cannot spin.
 */
final class ControlledSleeper implements Sleeper {

    private final List<Duration> sleeps = new CopyOnWriteArrayList<>();

    private final Semaphore permits = new Semaphore(0);

    @Override
    public boolean sleep(Duration duration, java.util.concurrent.CompletableFuture<?> cancel) throws InterruptedException {
        sleeps.add(duration);
        permits.acquire();
        return true;
    }

    List<Duration> sleeps() {
        return List.copyOf(sleeps);
    }

    void proceed() {
        permits.release();
    }
}
