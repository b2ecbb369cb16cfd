package dev.berth.alloc.task;

import dev.berth.config.Sleeper;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.driver.DriverException;
import dev.berth.driver.ExitResult;
import dev.berth.driver.GoDuration;
import dev.berth.driver.TaskDriver;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.TaskNotFoundException;

/**
 * Stops a task as Nomad's {@code killTask}: {@code driver.stop} retried up to {@value #ATTEMPTS} times with backoff
 * {@code min(5s·4^i, 2m)} ({@code TaskNotFound} counts as done), then a wait for the exit that is bounded by the kill
 * timeout plus the executor's grace: a driver whose future never completes cannot hang the caller. When
 * every attempt failed, or the task outlived the wait, the task is destroyed by force: a stop that cannot be delivered
 * never leaves the process running without its allocation.
 */
final class TaskStopper {

    private static final Logger log = LoggerFactory.getLogger(TaskStopper.class);
    static final int ATTEMPTS = 5;
    /** Executor grace after SIGKILL before we stop waiting on the driver (Nomad's "did not exit after 15 seconds"). */
    static final Duration EXIT_GRACE = Duration.ofSeconds(15);

    /**
     * @param result    the exit (a synthetic one with {@code err} when the driver never reported it)
     * @param killError why the kill did not end cleanly, or null
     */
    record Stopped(ExitResult result, String killError) {
    }

    private final TaskDriver driver;
    private final Duration timeout;
    private final String signal;
    private final Sleeper sleeper;

    /** One task's stopper: its driver, kill timeout and kill signal; {@code sleeper} waits the retries' backoff. */
    TaskStopper(TaskDriver driver, Duration timeout, String signal, Sleeper sleeper) {
        this.driver = driver;
        this.timeout = timeout;
        this.signal = signal;
        this.sleeper = sleeper;
    }

    /** {@link #stop(TaskDriver, TaskHandle, Duration, String, CompletableFuture, Sleeper, CompletableFuture)} for this task. */
    Stopped stop(TaskHandle handle, CompletableFuture<ExitResult> exit, CompletableFuture<?> cancel) throws InterruptedException {
        return stop(driver, handle, timeout, signal, exit, sleeper, cancel);
    }

    /** {@link #destroyExited(TaskDriver, TaskHandle)} for this task. */
    void destroyExited(TaskHandle handle) {
        destroyExited(driver, handle);
    }

    static Stopped stop(TaskDriver driver, TaskHandle handle, Duration timeout, String signal, CompletableFuture<ExitResult> exit,
                        Sleeper sleeper, CompletableFuture<?> cancel) throws InterruptedException {
        String stopError = null;
        for (int i = 0; i < ATTEMPTS; i++) {
            try {
                driver.stop(handle, timeout, signal);
                stopError = null;
                break;
            } catch (TaskNotFoundException e) {
                stopError = null;
                break;
            } catch (DriverException | RuntimeException e) {
                stopError = e.getMessage();
                log.warn("stopping task failed: task={} attempt={}", handle.taskId(), i + 1, e);
                if (i < ATTEMPTS - 1 && !sleeper.sleep(backoff(i), cancel)) {
                    break;
                }
            }
        }
        // Every stop attempt failed (a signal the kernel refuses, an engine error): the task must still end, so force it
        // as Nomad's clearDriverHandle would, instead of waiting out the kill timeout on a process nobody signalled.
        if (stopError != null && !exit.isDone()) {
            forceDestroy(driver, handle);
        }
        try {
            return new Stopped(exit.get(timeout.plus(EXIT_GRACE).toNanos(), TimeUnit.NANOSECONDS), null);
        } catch (ExecutionException e) {
            return new Stopped(new ExitResult(0, 0, false, String.valueOf(e.getCause().getMessage())), null);
        } catch (TimeoutException e) {
            String err = stopError != null ? stopError : "task did not exit after " + GoDuration.format(timeout.plus(EXIT_GRACE));
            if (stopError == null) {
                forceDestroy(driver, handle); // the stop "worked" but the task outlived it
            }
            return new Stopped(new ExitResult(0, 0, false, err), err);
        }
    }

    /** {@code destroy(handle, force=true)}: the driver kills whatever is left of the task; failures are logged only. */
    private static void forceDestroy(TaskDriver driver, TaskHandle handle) {
        try {
            log.warn("task {} did not stop; destroying it by force", handle.taskId());
            driver.destroy(handle, true);
        } catch (DriverException | RuntimeException e) {
            log.warn("force-destroying task failed: task={}", handle.taskId(), e);
        }
    }

    /** Nomad's {@code clearDriverHandle}: an exited task is destroyed in the driver (force; errors logged). Null: nothing. */
    static void destroyExited(TaskDriver driver, TaskHandle handle) {
        if (handle == null) {
            return;
        }
        try {
            driver.destroy(handle, true);
        } catch (DriverException | RuntimeException e) {
            log.warn("destroying exited task failed: task={}", handle.taskId(), e);
        }
    }

    /** Nomad's stop backoff: {@code min(5s·4^i, 2m)}. */
    static Duration backoff(int attempt) {
        long seconds = 5L << (2 * Math.min(attempt, 10));
        return Duration.ofSeconds(Math.min(seconds, 120));
    }

    /** The exit a completed driver future reports; a failed future is an exit with its error. */
    static ExitResult exitResult(CompletableFuture<ExitResult> exit) {
        try {
            return exit.getNow(null);
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            return new ExitResult(0, 0, false, String.valueOf(cause.getMessage()));
        }
    }

    /** Waits up to {@code wait} for a task runner's run to be over; a run that takes longer is logged, not waited for. */
    static void awaitRunOver(CompletableFuture<Void> done, Duration wait, String allocId, String task) throws InterruptedException {
        try {
            done.get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            // done never fails
        } catch (TimeoutException e) {
            log.warn("task runner did not finish within {}: alloc={} task={}", wait, allocId, task);
        }
    }
}
