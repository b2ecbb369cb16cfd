package dev.berth.device;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A device plugin whose every call follows a script the test sets up: open a stream the test then drives, throw, or
 * hang until interrupted. Stands for third-party plugins the manager must survive.
 */
final class ScriptedPlugin implements DevicePlugin {

    sealed interface Step<T> {
    }

    record Open<T>(QueueStream<T> stream) implements Step<T> {
    }

    record Throw<T>(String message) implements Step<T> {
    }

    record Hang<T>() implements Step<T> {
    }

    private final String name;

    final LinkedBlockingQueue<Step<List<DeviceGroup>>> fingerprintSteps = new LinkedBlockingQueue<>();

    final LinkedBlockingQueue<Step<List<DeviceGroupStats>>> statsSteps = new LinkedBlockingQueue<>();

    final AtomicInteger fingerprintCalls = new AtomicInteger();

    final AtomicInteger statsCalls = new AtomicInteger();

    final List<List<String>> reserved = new CopyOnWriteArrayList<>();

    volatile boolean hangOnReserve;

    ScriptedPlugin(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    /** Queues a fingerprint stream and returns it for the test to drive. */
    QueueStream<List<DeviceGroup>> nextFingerprintStream() {
        QueueStream<List<DeviceGroup>> stream = new QueueStream<>();
        fingerprintSteps.add(new Open<>(stream));
        return stream;
    }

    QueueStream<List<DeviceGroupStats>> nextStatsStream() {
        QueueStream<List<DeviceGroupStats>> stream = new QueueStream<>();
        statsSteps.add(new Open<>(stream));
        return stream;
    }

    @Override
    public DeviceStream<List<DeviceGroup>> fingerprint() throws Exception {
        fingerprintCalls.incrementAndGet();
        return run(fingerprintSteps.take());
    }

    @Override
    public DeviceStream<List<DeviceGroupStats>> stats(Duration interval) throws Exception {
        statsCalls.incrementAndGet();
        // unscripted statistics: an open, silent stream (it would only time out after stats-interval + call-timeout)
        Step<List<DeviceGroupStats>> step = statsSteps.poll();
        return step == null ? new QueueStream<>() : run(step);
    }

    private static <T> DeviceStream<T> run(Step<T> step) throws Exception {
        return switch (step) {
            case Open<T> open -> open.stream();
            case Throw<T> t -> throw new IllegalStateException(t.message());
            case Hang<T> h -> {
                new CountDownLatch(1).await();
                throw new AssertionError("unreachable");
            }
        };
    }

    @Override
    public Reservation reserve(List<String> ids) throws Exception {
        if (hangOnReserve) {
            new CountDownLatch(1).await();
        }
        reserved.add(ids);
        return new Reservation(java.util.Map.of("PLUGIN", name, "IDS", String.join(",", ids)), List.of(), List.of());
    }

    static DeviceGroup group(String vendor, String type, String name, String... ids) {
        return new DeviceGroup(vendor, type, name, java.util.Map.of("memory", Attribute.ofInt(16, "GiB")),
                java.util.Arrays.stream(ids).map((id) -> DeviceInstance.healthy(id, null)).toList());
    }
}
