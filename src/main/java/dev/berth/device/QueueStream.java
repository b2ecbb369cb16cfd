package dev.berth.device;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link DeviceStream} backed by an unbounded queue that a producer fills with {@link #emit}, {@link #fail} and
 * {@link #end}. Closing runs the {@code onClose} action once (plugins use it to stop their producer thread).
 */
public class QueueStream<T> implements DeviceStream<T> {

    private final LinkedBlockingQueue<StreamEvent<T>> queue = new LinkedBlockingQueue<>();

    private final AtomicBoolean closed = new AtomicBoolean();

    private volatile Runnable onClose = () -> { };

    /** Sets what {@link #close()} does; call before handing the stream out. */
    public QueueStream<T> onClose(Runnable action) {
        this.onClose = action;
        return this;
    }

    public void emit(T value) {
        queue.add(new StreamEvent.Item<>(value));
    }

    public void fail(String message, Throwable cause) {
        queue.add(new StreamEvent.Failure<>(message, cause));
    }

    public void end() {
        queue.add(new StreamEvent.End<>());
    }

    public boolean isClosed() {
        return closed.get();
    }

    @Override
    public StreamEvent<T> poll(Duration timeout) throws InterruptedException {
        return queue.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            onClose.run();
        }
    }
}
