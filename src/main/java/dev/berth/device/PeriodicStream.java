package dev.berth.device;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;

import dev.berth.config.Sleeper;

/**
 * A {@link DeviceStream} that calls a producer on a virtual thread at once and then every {@code period}. Producer
 * exceptions end the stream with a {@link StreamEvent.Failure} (the supervisor restarts it with backoff).
 * With {@code onlyOnChange}, a value equal to the previous one is not sent again (fingerprints); otherwise every value
 * is sent (statistics).
 */
public final class PeriodicStream {

    private PeriodicStream() {
    }

    public static <T> DeviceStream<T> start(String threadName, Duration period, Sleeper sleeper, boolean onlyOnChange,
            Callable<T> producer) {
        QueueStream<T> stream = new QueueStream<>();
        Thread thread = Thread.ofVirtual().name(threadName).unstarted(() -> {
            T last = null;
            boolean first = true;
            while (!stream.isClosed()) {
                T value;
                try {
                    value = producer.call();
                }
                catch (InterruptedException ex) {
                    return;
                }
                catch (Exception ex) {
                    stream.fail(ex.getMessage() == null ? ex.toString() : ex.getMessage(), ex);
                    return;
                }
                if (!onlyOnChange || first || !Objects.equals(value, last)) {
                    stream.emit(value);
                }
                first = false;
                last = value;
                try {
                    sleeper.sleep(period);
                }
                catch (InterruptedException ex) {
                    return;
                }
            }
        });
        stream.onClose(thread::interrupt);
        thread.start();
        return stream;
    }
}
