package dev.berth.stats;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.berth.host.ThreadNiceness;

/**
 * Arms periodic work: runs {@code tick} now and then every {@code interval} after the previous run finished, until
 * the returned handle is closed. Injected so tests call ticks themselves instead of waiting for time to pass.
 */
@FunctionalInterface
public interface HostStatsTicker {

    Handle every(Duration interval, Runnable tick);

    /** Stops further ticks; a tick already running finishes. */
    interface Handle extends AutoCloseable {
        @Override
        void close();
    }

    /** One daemon platform thread per armed task (the tick does blocking file and native I/O). */
    static HostStatsTicker singleThread(String threadName) {
        return (interval, tick) -> {
            // sampling is background work: at a lower priority it yields the CPU to API requests
            ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(ThreadNiceness.lowered(
                    Thread.ofPlatform().name(threadName).daemon(true).factory(), ThreadNiceness.BACKGROUND));
            // fixed delay, not rate: a slow tick (a hung mount) must not queue up a burst of ticks behind it
            executor.scheduleWithFixedDelay(tick, 0, interval.toNanos(), TimeUnit.NANOSECONDS);
            // shutdown(), not shutdownNow(): a running tick finishes instead of being interrupted mid-read
            return executor::shutdown;
        };
    }
}
