package dev.berth.device;

/** What a {@link DeviceStream} delivers: a value, a failure that ends the stream, or its end. */
public sealed interface StreamEvent<T> {

    record Item<T>(T value) implements StreamEvent<T> {
    }

    record Failure<T>(String message, Throwable cause) implements StreamEvent<T> {
    }

    record End<T>() implements StreamEvent<T> {
    }
}
