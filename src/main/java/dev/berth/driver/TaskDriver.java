package dev.berth.driver;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A task driver: the SPI every way of running a task implements (mock_driver, raw_exec, exec, docker).
 * Implementations are Spring beans; the {@link DriverManager} fingerprints them and hands them to task runners.
 *
 * <p>Threading: every method may be called from any thread, concurrently for different tasks. No method may
 * block longer than its contract says; {@link #waitTask} never blocks at all.
 */
public interface TaskDriver {

    /** The name tasks use in {@code Driver}, e.g. {@code raw_exec}. */
    String name();

    /** How often {@link #fingerprint()} is called (raw_exec 30 s, mock 500 ms in Nomad). */
    Duration fingerprintPeriod();

    /**
     * Health and attributes of the driver right now. Called periodically by the {@link DriverManager}; may
     * throw, which is reported as undetected/unhealthy ("failed to fingerprint driver") and retried next period.
     */
    DriverFingerprint fingerprint();

    /**
     * Strictly validates a task's {@code Config} against the driver's schema: unknown keys, wrong types and
     * missing required keys are errors. Returns nothing; throws on the first problem.
     */
    void validate(Map<String, Object> config) throws TaskConfigValidationException;

    /** Starts the task and returns its handle. Throws {@link DriverException} (recoverable or not) on failure. */
    TaskHandle start(TaskConfig task) throws DriverException;

    /**
     * A future that completes with the task's exit once it ends. Never blocks. Callers always bound their wait
     * by their own cancellation too: a misbehaving driver must not hang a runner.
     */
    CompletableFuture<ExitResult> waitTask(TaskHandle handle);

    /**
     * Stops the task: sends {@code signal} (e.g. {@code SIGTERM}; null means the driver default), waits up to
     * {@code timeout}, then force-kills the whole task (process group / cgroup / container). Returns once the
     * task is dead or the kill was sent. {@link TaskNotFoundException} if the task is unknown.
     */
    void stop(TaskHandle handle, Duration timeout, String signal) throws DriverException;

    /** Sends a signal (name like {@code SIGUSR1}) to the task. Unknown names are an error, never a silent SIGINT. */
    void signal(TaskHandle handle, String signal) throws DriverException;

    /**
     * Releases everything the driver holds for the task. With {@code force}, kills it first; without, a running task
     * is an error ({@code cannot destroy running task}).
     */
    void destroy(TaskHandle handle, boolean force) throws DriverException;

    /**
     * Runs a command inside the running task ({@code nomad alloc exec}): with the task's environment, working directory
     * and isolation (cgroup, container). The session must die with the task. Default: not supported.
     *
     * @throws DriverException when the driver cannot exec, or the task is not running
     */
    default ExecSession exec(TaskHandle handle, ExecSession.Request request) throws DriverException {
        throw new DriverException("driver " + name() + " does not support exec", false);
    }

    /**
     * Gives a running task a new size ({@code task}'s {@code cpuMhz}, {@code memoryMb}, {@code memoryMaxMb}; its other
     * fields are those it was started with) without restarting it: the driver writes the new limits where it enforces
     * them, or refuses, saying why (the caller then kills and starts the task again). Must not block longer than a few
     * file writes or one engine call. Default: refused, the driver cannot resize a running task.
     */
    default ResizeResult resize(TaskHandle handle, TaskConfig task) throws DriverException {
        return new ResizeResult.Refused("driver " + name() + " cannot resize a running task");
    }

    /**
     * Re-attaches to a task from a persisted handle after an agent restart. Throws {@link TaskNotFoundException}
     * when the task is gone (it then counts as exited and follows its restart policy).
     */
    TaskHandle recover(TaskHandle handle) throws DriverException;

    /**
     * Every task of this driver (and of this agent's data dir) that is running on the host right now, found without the
     * agent's state — for crash reconciliation at start-up: a task started just before a crash may have no
     * persisted handle. Each returned handle can be given to {@link #recover} and then {@link #destroy}. Must not see tasks
     * of another agent on the same host. Default: none, for drivers whose tasks do not outlive the agent.
     */
    default java.util.List<TaskHandle> liveTasks() {
        return java.util.List.of();
    }

    /**
     * What identifies the task a handle points at on the host: equal for the handle {@link #start} returned (as persisted)
     * and the handle {@link #liveTasks} finds for the same task, different for any other task. The reconciliation compares
     * these. Default: pid and process start ticks (a recycled pid has other start ticks); container drivers override it.
     */
    default String taskIdentity(TaskHandle handle) {
        return process(handle).identity();
    }

    /**
     * Where the handle's task runs on the host (root pid and its start ticks, cgroup), typed for the agent's stats and
     * device attribution. Default: read from the process drivers' common state ({@link TaskHandles}); a driver whose
     * state says otherwise overrides it.
     */
    default dev.berth.host.TaskProcess process(TaskHandle handle) {
        return TaskHandles.process(handle);
    }
}
