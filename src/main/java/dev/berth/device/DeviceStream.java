package dev.berth.device;

import java.time.Duration;

/**
 * A stream of values from a {@link DevicePlugin}. Single consumer; {@link #close()} may be called from any thread and
 * more than once.
 */
public interface DeviceStream<T> extends AutoCloseable {

    /**
     * Waits up to {@code timeout} for the next event. Returns null when none arrived in time. After a
     * {@link StreamEvent.Failure} or {@link StreamEvent.End} the stream delivers nothing more.
     */
    StreamEvent<T> poll(Duration timeout) throws InterruptedException;

    /** Stops the producer and releases everything the stream holds. */
    @Override
    void close();
}
