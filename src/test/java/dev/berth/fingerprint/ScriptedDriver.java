package dev.berth.fingerprint;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.berth.driver.DriverFingerprint;
import dev.berth.driver.ExitResult;
import dev.berth.driver.HealthState;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskDriver;
import dev.berth.driver.TaskHandle;

/**
 * A task driver whose fingerprints follow a script: each call takes the next scripted step; once the script is
 * used up, the last step repeats. Stands in for a real driver in fingerprint tests; it runs no tasks.
 */
public class ScriptedDriver implements TaskDriver {

    private final String name;
    private final Duration period;
    private final ConcurrentLinkedQueue<Supplier<DriverFingerprint>> script = new ConcurrentLinkedQueue<>();
    private volatile Supplier<DriverFingerprint> last;
    private final AtomicInteger calls = new AtomicInteger();

    public ScriptedDriver(String name, Duration period) {
        this.name = name;
        this.period = period;
    }

    /** Adds a step; returns this for chaining. */
    public ScriptedDriver then(Supplier<DriverFingerprint> step) {
        script.add(step);
        return this;
    }

    public ScriptedDriver thenReturn(HealthState health, String description, Map<String, String> attributes) {
        return then(() -> new DriverFingerprint(health, description, attributes));
    }

    public ScriptedDriver thenThrow(String message) {
        return then(() -> {
            throw new IllegalStateException(message);
        });
    }

    public int calls() {
        return calls.get();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Duration fingerprintPeriod() {
        return period;
    }

    @Override
    public DriverFingerprint fingerprint() {
        calls.incrementAndGet();
        Supplier<DriverFingerprint> step = script.poll();
        if (step != null) {
            last = step;
        }
        if (last == null) {
            return DriverFingerprint.disabled();
        }
        return last.get();
    }

    @Override
    public void validate(Map<String, Object> config) {
    }

    @Override
    public TaskHandle start(TaskConfig task) {
        throw new UnsupportedOperationException("the scripted driver runs no tasks");
    }

    @Override
    public CompletableFuture<ExitResult> waitTask(TaskHandle handle) {
        throw new UnsupportedOperationException("the scripted driver runs no tasks");
    }

    @Override
    public void stop(TaskHandle handle, Duration timeout, String signal) {
        throw new UnsupportedOperationException("the scripted driver runs no tasks");
    }

    @Override
    public void signal(TaskHandle handle, String signal) {
        throw new UnsupportedOperationException("the scripted driver runs no tasks");
    }

    @Override
    public void destroy(TaskHandle handle, boolean force) {
        throw new UnsupportedOperationException("the scripted driver runs no tasks");
    }

    @Override
    public TaskHandle recover(TaskHandle handle) {
        throw new UnsupportedOperationException("the scripted driver runs no tasks");
    }
}
