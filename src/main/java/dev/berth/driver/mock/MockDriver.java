package dev.berth.driver.mock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import dev.berth.config.Sleeper;
import dev.berth.driver.DriverException;
import dev.berth.driver.DriverFingerprint;
import dev.berth.driver.DriverSignals;
import dev.berth.driver.ExitResult;
import dev.berth.driver.ResizeResult;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskConfigValidationException;
import dev.berth.driver.TaskDriver;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.TaskNotFoundException;
import dev.berth.host.Signals;

/**
 * Nomad's {@code mock_driver}: a real, scriptable driver that runs tasks in-process. A task "runs" until its
 * {@code run_for} elapses or it is stopped, writes its scripted output to the task's stdout/stderr files and ends
 * with its scripted exit. Timing runs on the injected scheduler (virtual threads in production), so tests can drive
 * it; {@code start_block_for} blocks through the injected {@link Sleeper}.
 *
 * <p>Tasks live only in memory: {@link #recover} finds a task only while this instance still holds it.
 */
public class MockDriver implements TaskDriver, AutoCloseable {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(MockDriver.class);

    public static final String NAME = "mock_driver";

    private final boolean enabled;
    private final Clock clock;
    private final ScheduledExecutorService scheduler;
    private final Sleeper sleeper;
    private final Map<String, MockTask> tasks = new ConcurrentHashMap<>();
    private final AtomicReference<DriverFingerprint> scriptedHealth = new AtomicReference<>();

    public MockDriver(boolean enabled, Clock clock, ScheduledExecutorService scheduler, Sleeper sleeper) {
        this.enabled = enabled;
        this.clock = Objects.requireNonNull(clock, "'clock' must not be null");
        this.scheduler = Objects.requireNonNull(scheduler, "'scheduler' must not be null");
        this.sleeper = Objects.requireNonNull(sleeper, "'sleeper' must not be null");
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Every 500 ms while enabled (tests script its health); disabled it can never change, so once every 30 s. */
    @Override
    public Duration fingerprintPeriod() {
        return enabled ? Duration.ofMillis(500) : Duration.ofSeconds(30);
    }

    @Override
    public DriverFingerprint fingerprint() {
        if (!enabled) {
            return DriverFingerprint.disabled();
        }
        DriverFingerprint scripted = scriptedHealth.get();
        return scripted != null ? scripted : DriverFingerprint.healthy(Map.of("driver.mock_driver", "true"));
    }

    /**
     * Makes the next fingerprints report {@code fingerprint} (e.g. unhealthy) instead of the default healthy one;
     * {@code null} goes back to the default. For tests of health handling. Ignored while the driver is disabled.
     */
    public void scriptHealth(DriverFingerprint fingerprint) {
        scriptedHealth.set(fingerprint);
    }

    @Override
    public void validate(Map<String, Object> config) throws TaskConfigValidationException {
        MockTaskConfig.parse(config);
    }

    @Override
    public TaskHandle start(TaskConfig task) throws DriverException {
        MockTaskConfig cfg;
        try {
            cfg = MockTaskConfig.parse(task.config());
        } catch (TaskConfigValidationException ex) {
            throw new DriverException("failed to decode driver config: " + ex.getMessage(), false, ex);
        }
        MockTask previous = tasks.get(task.id());
        if (previous != null && !previous.exit.isDone()) {
            throw new DriverException("task with ID \"" + task.id() + "\" already started", false);
        }
        if (cfg.startBlockFor().isPositive()) {
            try {
                sleeper.sleep(cfg.startBlockFor());
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new DriverException("start interrupted", true, ex);
            }
        }
        if (!cfg.startError().isEmpty()) {
            throw new DriverException(cfg.startError(), cfg.startErrorRecoverable());
        }
        Map<String, String> state = new java.util.LinkedHashMap<>();
        state.put("run_for", cfg.runFor().toString());
        state.put("kill_after", cfg.killAfter().toString());
        cfg.portMap().forEach((label, port) -> state.put("port." + label, Integer.toString(port)));
        TaskHandle handle = new TaskHandle(NAME, task.id(), clock.instant(), state);
        MockTask running = new MockTask(handle, cfg);
        // A restart reuses the task id: the exited previous run is replaced.
        tasks.put(task.id(), running);

        // Nomad writes the strings once at start and then repeats them; the first write happens before start returns
        // so a task that exits at once still has its output.
        write(task.stdoutPath(), cfg.stdoutString());
        write(task.stderrPath(), cfg.stderrString());
        repeat(running, task.stdoutPath(), cfg.stdoutString(), cfg.stdoutRepeat(), cfg.stdoutRepeatDuration());
        repeat(running, task.stderrPath(), cfg.stderrString(), cfg.stderrRepeat(), cfg.stderrRepeatDuration());
        running.timers.add(scheduler.schedule(running::finish, Math.max(0, cfg.runFor().toNanos()), TimeUnit.NANOSECONDS));
        return handle;
    }

    private void repeat(MockTask task, Path path, String text, long times, Duration every) {
        if (text.isEmpty() || times <= 0 || path == null) {
            return;
        }
        // One pending timer per stream at a time (not `times` timers up front): a large repeat count costs nothing.
        long periodNanos = Math.max(1, every.toNanos());
        task.timers.add(scheduler.schedule(() -> {
            if (task.exit.isDone()) {
                return;
            }
            try {
                write(path, text);
            } catch (RuntimeException ex) {
                // Periodic work re-arms even when one write fails (e.g. the log directory was removed for a moment).
                log.warn("mock_driver task {}: writing {} failed: {}", task.handle.taskId(), path, ex.getMessage());
            }
            task.timers.removeIf(java.util.concurrent.Future::isDone);
            repeat(task, path, text, times - 1, every);
        }, periodNanos, TimeUnit.NANOSECONDS));
    }

    private static void write(Path path, String text) {
        if (path == null || text.isEmpty()) {
            return;
        }
        try {
            if (path.getParent() != null) {
                Files.createDirectories(path.getParent());
            }
            Files.writeString(path, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException ex) {
            throw new UncheckedIOException("mock_driver could not write " + path, ex);
        }
    }

    @Override
    public CompletableFuture<ExitResult> waitTask(TaskHandle handle) {
        MockTask task = tasks.get(handle.taskId());
        if (task == null) {
            return CompletableFuture.failedFuture(new TaskNotFoundException(handle.taskId()));
        }
        // A copy, so a caller cancelling or completing its future cannot change the task's outcome.
        return task.exit.copy();
    }

    /**
     * Nomad's mock semantics: waits {@code kill_after} (or until the task exits by itself), ignoring
     * {@code timeout} and {@code signal}, then ends the task with its configured exit.
     */
    @Override
    public void stop(TaskHandle handle, Duration timeout, String signal) throws DriverException {
        MockTask task = require(handle);
        try {
            task.exit.get(Math.max(0, task.config.killAfter().toNanos()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException killNow) {
            task.finish();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new DriverException("stop interrupted", true, ex);
        } catch (ExecutionException ex) {
            throw new IllegalStateException("mock task futures never fail", ex);
        }
    }

    @Override
    public void signal(TaskHandle handle, String signal) throws DriverException {
        MockTask task = require(handle);
        int number = DriverSignals.parse(signal);
        if (!task.config.signalError().isEmpty()) {
            throw new DriverException(task.config.signalError(), false);
        }
        task.signals.add(Signals.name(number));
    }

    /** Canonical names of the signals the task received, in order (for tests of signal delivery). */
    public List<String> receivedSignals(String taskId) {
        MockTask task = tasks.get(taskId);
        return task == null ? List.of() : List.copyOf(task.signals);
    }

    @Override
    public void destroy(TaskHandle handle, boolean force) throws DriverException {
        MockTask task = tasks.get(handle.taskId());
        if (task == null) {
            return;
        }
        if (!task.exit.isDone()) {
            if (!force) {
                throw new DriverException("cannot destroy running task", false);
            }
            task.finish();
        }
        tasks.remove(handle.taskId(), task);
    }

    /** A mock task has no resources to change: every new size is applied. */
    @Override
    public ResizeResult resize(TaskHandle handle, TaskConfig task) {
        return new ResizeResult.Applied("mock_driver has no limits");
    }

    @Override
    public TaskHandle recover(TaskHandle handle) throws DriverException {
        return require(handle).handle;
    }

    private MockTask require(TaskHandle handle) throws TaskNotFoundException {
        MockTask task = tasks.get(handle.taskId());
        if (task == null) {
            throw new TaskNotFoundException(handle.taskId());
        }
        return task;
    }

    /**
     * Stops the scheduler. Running tasks are not ended: on agent shutdown a task must not look as if it exited (runners
     * bound their waits by their own shutdown signal).
     */
    @Override
    public void close() {
        scheduler.shutdownNow();
    }

    /** One in-memory task. {@code exit} completes exactly once; pending timers are cancelled then. */
    private static final class MockTask {
        final TaskHandle handle;
        final MockTaskConfig config;
        final CompletableFuture<ExitResult> exit = new CompletableFuture<>();
        final List<ScheduledFuture<?>> timers = new CopyOnWriteArrayList<>();
        final List<String> signals = new CopyOnWriteArrayList<>();

        MockTask(TaskHandle handle, MockTaskConfig config) {
            this.handle = handle;
            this.config = config;
        }

        void finish() {
            exit.complete(new ExitResult(config.exitCode(), config.exitSignal(), false, config.exitErrMsg()));
            // Also after completion: a repetition that raced with finish() may have re-armed itself.
            new ArrayList<>(timers).forEach(t -> t.cancel(false));
            timers.clear();
        }
    }
}
