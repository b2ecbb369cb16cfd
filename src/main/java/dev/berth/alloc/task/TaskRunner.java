package dev.berth.alloc.task;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.task.TaskHooks.HookFailedException;
import dev.berth.driver.DriverException;
import dev.berth.driver.ExecSession;
import dev.berth.driver.ExitResult;
import dev.berth.driver.TaskDevice;
import dev.berth.driver.TaskHandle;

/**
 * Runs one task on virtual threads ({@code berth-task-…}): gate → prestart hooks → driver start → wait → restart policy,
 * until the task is dead, killed or the agent shuts down. A dead task (not poststop) then waits while its alloc lives, so
 * an alloc-wide restart ({@link #forceRestart}) can run it again, until the alloc runner ends that wait
 * ({@code RunComplete}). A kill stops the task; a shutdown only ends the runner and leaves the task running for a later
 * restore. While the process runs no thread waits for it: the wait is a callback ({@link #waitFor}) and the run goes on on
 * a new virtual thread once the process exits or is to be stopped, so running tasks hold no parked stacks. Collaborators:
 * {@link TaskStateRecorder} (state, handle, persistence), {@link TaskRestore} (agent restarts), {@link RestartStep}
 * (restart decision and delay), {@link TaskStopper} (kill sequence), {@link TaskHookExecutor} (hooks). Every wait is
 * bounded by kill/shutdown (and the kill by its timeout): a driver whose future never completes cannot hang the runner.
 */
public final class TaskRunner {

    private static final Logger log = LoggerFactory.getLogger(TaskRunner.class);
    static final Duration EXIT_GRACE = TaskStopper.EXIT_GRACE;

    private final TaskRunnerContext ctx;
    private final TaskHookExecutor hooks;
    private final TaskStateRecorder rec;
    private final RestartStep restarts;
    private final ExitWatcher exits;
    private volatile TaskHookContext hookContext;
    private final CompletableFuture<Void> killSignal = new CompletableFuture<>();
    private final CompletableFuture<Void> shutdownSignal = new CompletableFuture<>();
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final AtomicBoolean started = new AtomicBoolean();
    // the reason the final Killed event carries (an update removed the task), else null
    private volatile String killedReason;

    public TaskRunner(TaskRunnerContext ctx) {
        this.ctx = ctx;
        this.hooks = new TaskHookExecutor(ctx.hooks(), ctx.listener(), ctx.clock(), ctx.alloc().id(), ctx.task().name());
        this.rec = new TaskStateRecorder(ctx);
        this.restarts = new RestartStep(ctx, rec, killSignal, shutdownSignal);
        this.exits = new ExitWatcher(ctx, rec, hooks, killSignal, shutdownSignal);
        this.hookContext = new TaskHookContext(ctx.alloc(), ctx.group(), ctx.task(), ctx.allocDir().path(),
                ctx.allocDir().taskDir(ctx.task().name()), ctx.driver(), this::emit);
        ctx.coordinator().taskStateChanged(ctx.task().name(), rec.state());
        killSignal.whenComplete((v, e) -> ctx.coordinator().wake());
        shutdownSignal.whenComplete((v, e) -> ctx.coordinator().wake());
    }

    public String name() {
        return ctx.task().name();
    }

    public TaskState state() {
        return rec.state();
    }

    public CompletableFuture<Void> done() {
        return done;
    }

    public TaskSpec task() {
        return ctx.task();
    }

    public boolean started() {
        return started.get();
    }

    /** Emits {@code Received} and starts the run loop on a virtual thread. Called once. */
    public void start() {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        // a restored task that has no event yet was persisted before its Received (crash right after the submission)
        if (ctx.restoredState() == null || ctx.restoredState().events().isEmpty()) {
            emit(TaskEvent.received(ctx.clock().instant()));
        }
        if (killSignal.isDone()) {
            markKilledBeforeStart();
            done.complete(null);
            return;
        }
        continueOnNewThread(this::begin);
    }

    /** A part of the run: true when the run is over, false when it waits for a process (it goes on in {@link #waitFor}). */
    @FunctionalInterface
    private interface Segment {
        boolean run() throws InterruptedException;
    }

    private void continueOnNewThread(Segment segment) {
        Thread.ofVirtual().name("berth-task-" + shortId() + "-" + name()).start(() -> runSegment(segment));
    }

    private void runSegment(Segment segment) {
        boolean over = true;
        try {
            over = segment.run();
            if (over && (!shutdownSignal.isDone() || killSignal.isDone())) {
                hooks.stop(hookContext);
                rec.persistLocal(true);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.error("task runner crashed: alloc={} task={}", ctx.alloc().id(), name(), e);
            rec.update(s -> s.withEvent(TaskEvent.setupFailure(ctx.clock().instant(), "task runner failed: " + e.getMessage()))
                    .withState(TaskState.DEAD, ctx.clock().instant()));
        } finally {
            if (over) {
                done.complete(null);
            }
        }
    }

    /** Runs (or restores) the task until it is dead, then waits for alloc-wide restarts. */
    private boolean begin() throws InterruptedException {
        if (ctx.restoredState() != null) {
            switch (new TaskRestore(ctx, rec, hooks, restarts, exits, this::emit).restore(hookContext, this::waitFor)) {
                case COMPLETE -> {
                    return true;
                }
                case DONE -> {
                    return allocRestarts();
                }
                case WAITING -> {
                    return false;
                }
                case RESTARTED, NOT_STARTED -> {
                    // restarting, or pending before the agent stopped: through the gate as usual
                }
            }
        }
        return startThenAllocRestarts();
    }

    private boolean startThenAllocRestarts() throws InterruptedException {
        return startLoop() && allocRestarts();
    }

    /** While an alloc-wide restart runs the dead task again; false when a run waits for its process. */
    private boolean allocRestarts() throws InterruptedException {
        while (restarts.awaitAllocRestart()) {
            if (!startLoop()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Waits for the exit, a kill, a restart request or shutdown without a thread: the run goes on on a new virtual thread
     * once one of them happened (a thread parked for each running task would keep its stack for as long as the task runs).
     */
    private void waitFor(CompletableFuture<ExitResult> exit) {
        CompletableFuture<Boolean> restart = rec.restartSignal();
        TaskHookContext context = hookContext;
        exits.wakeUp(exit, restart).whenComplete((v, e) -> continueOnNewThread(() -> afterExit(exit, restart, context)));
    }

    /** The end of a process was seen: records it and starts it again (or not) as the restart policy says. */
    private boolean afterExit(CompletableFuture<ExitResult> exit, CompletableFuture<Boolean> restart, TaskHookContext context)
            throws InterruptedException {
        if (!exits.handle(exit, restart, context)) {
            return allocRestarts();
        }
        boolean again = restarts.afterExit(exits.killError(), killedReason);
        rec.acknowledgeRestart();
        return again ? startThenAllocRestarts() : allocRestarts();
    }

    /** Starts the task (again) until it runs or is dead; false when a started process is waited for ({@link #waitFor}). */
    private boolean startLoop() throws InterruptedException {
        while (true) {
            if (killSignal.isDone()) {
                markKilledBeforeStart();
                return true;
            }
            // every start passes the lifecycle gate (it is open for restarts unless an alloc-wide restart is under way)
            if (!ctx.coordinator().awaitStart(name(), List.of(killSignal, shutdownSignal))) {
                if (killSignal.isDone()) {
                    markKilledBeforeStart();
                }
                return true;
            }
            CompletableFuture<ExitResult> exit;
            try {
                exit = startOnce();
            } catch (HookFailedException e) {
                emit(e.event());
                ctx.tracker().setStartError(e, e.recoverable());
                if (!restarts.afterExit(exits.killError(), null)) {
                    return true;
                }
                continue;
            } catch (DriverException e) {
                emit(TaskEvent.driverFailure(ctx.clock().instant(), e.getMessage()));
                ctx.tracker().setStartError(e, e.recoverable());
                if (!restarts.afterExit(exits.killError(), null)) {
                    return true;
                }
                continue;
            }
            waitFor(exit);
            return false;
        }
    }

    /** Prestart hooks, driver start, {@code Started}, poststart hooks; returns the exit future. */
    private CompletableFuture<ExitResult> startOnce() throws HookFailedException, DriverException {
        List<TaskDevice> devices = new ArrayList<>();
        Interpolator base = ctx.envBuilder().apply(hookContext);
        Map<String, String> env = hooks.prestart(hookContext, base.env(), rec.hookStates(), devices);
        TaskHandle h;
        try {
            h = ctx.driver().start(ctx.taskConfig(base.withEnv(env), devices));
        } catch (RuntimeException e) {
            // a driver bug or input validation missed: the task fails with a clear event, never a stuck allocation
            log.error("driver start failed unexpectedly: alloc={} task={}", ctx.alloc().id(), name(), e);
            throw new DriverException("unexpected driver error: " + e, false, e);
        }
        rec.attach(h);
        rec.persistLocal(false);
        rec.update(s -> s.withEvent(TaskEvent.started(ctx.clock().instant())).withState(TaskState.RUNNING, ctx.clock().instant()));
        ctx.listener().taskStarted(name());
        hooks.poststart(hookContext, h);
        return ctx.driver().waitTask(h);
    }

    private void markKilledBeforeStart() {
        var now = ctx.clock().instant();
        rec.update(s -> s.dead() ? s : s.withEvent(TaskEvent.killed(now, null)).withState(TaskState.DEAD, now));
    }

    /** Fails a task that never ran (alloc prerun failed): Received, the event, dead. Its runner never starts. */
    public void failBeforeStart(TaskEvent event) {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        emit(TaskEvent.received(ctx.clock().instant()));
        rec.update(s -> s.withEvent(event).withState(TaskState.DEAD, ctx.clock().instant()));
        done.complete(null);
    }

    /** Runs the task update hooks for a non-terminal alloc update (the caller serializes updates). */
    public void update(AllocationSpec alloc) {
        TaskHookContext old = hookContext;
        hookContext = new TaskHookContext(alloc, old.group(), old.task(), old.allocDir(), old.taskDir(), old.driver(), old.events());
        if (alloc.desiredTerminal()) {
            return;
        }
        hooks.update(hookContext, alloc);
    }

    /**
     * Kills the task: emits {@code Killing} (unless dead), signals the run loop and waits until it exits, bounded by the
     * kill timeout plus the stop retries' budget. Idempotent.
     */
    public void kill(String reason) throws InterruptedException {
        if (done.isDone()) {
            return;
        }
        if (started.get() && !killSignal.isDone() && !state().dead()) {
            emit(TaskEvent.killing(ctx.clock().instant(), ctx.killTimeout(), reason));
        }
        killSignal.complete(null);
        awaitDone(ctx.killTimeout().plus(EXIT_GRACE).plus(Duration.ofSeconds(5)));
    }

    /** Why a task that an alloc update no longer lists is killed (Nomad's {@code KillReason}). */
    public static final String REMOVED_REASON = "update missing task";

    /**
     * Kills a task that an alloc update no longer lists: {@code Killing} → {@code Terminated} → {@code Killed}, both kill
     * events with {@code kill_reason} {@value #REMOVED_REASON}. Unlike Nomad the task does not fail: the alloc converges
     * to the update instead of failing its siblings.
     */
    public void killRemoved() throws InterruptedException {
        killedReason = REMOVED_REASON;
        kill(REMOVED_REASON);
    }

    /** Ends the runner but leaves the task running. */
    public void shutdown(Duration wait) throws InterruptedException {
        shutdownSignal.complete(null);
        awaitDone(wait);
    }

    /**
     * Restarts the running task (the user's or a sibling's request); blocks until the old process exited.
     *
     * @throws TaskNotRunningException if the task is not running
     */
    public void restart(String reason, boolean failure) throws TaskNotRunningException, InterruptedException {
        CompletableFuture<Void> ack = rec.restartAckIfRunning();
        if (ack == null) {
            throw new TaskNotRunningException();
        }
        emit(TaskEvent.restartSignaled(ctx.clock().instant(), reason));
        rec.requestRestart(failure);
        try {
            ack.get(ctx.killTimeout().plus(EXIT_GRACE).plus(Duration.ofSeconds(5)).toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException | TimeoutException e) {
            log.warn("restart did not finish in time: alloc={} task={}", ctx.alloc().id(), name());
        }
    }

    /**
     * Nomad's {@code ForceRestart} for an alloc-wide restart: a running task restarts as by {@link #restart} (blocking
     * until the old process exited); a dead task whose run loop has not finished ({@code RunComplete == false}, it waits
     * while its alloc lives) runs again. Both get {@code Restart Signaled} with {@code reason}.
     *
     * @throws TaskNotRunningException when it can do neither (pending, or its run is over)
     */
    public void forceRestart(String reason) throws TaskNotRunningException, InterruptedException {
        CompletableFuture<Void> waiting = rec.allocRestartWaiter();
        if (waiting != null) {
            emit(TaskEvent.restartSignaled(ctx.clock().instant(), reason));
            waiting.complete(null);
            return;
        }
        restart(reason, false);
    }

    /** Sends a signal to the running task with a {@code Signaling} event. */
    public void signal(String signal, String reason) throws TaskNotRunningException, DriverException {
        TaskHandle h = rec.runningHandle();
        if (h == null) {
            throw new TaskNotRunningException();
        }
        emit(TaskEvent.signaling(ctx.clock().instant(), signal, reason));
        ctx.driver().signal(h, signal);
    }

    /** {@code alloc exec} in the running task ({@link TaskExecs}): an {@code Exec} event; the session ends with this run. */
    public ExecSession exec(ExecSession.Request request) throws TaskNotRunningException, DriverException {
        return TaskExecs.start(ctx.driver(), rec.runningHandle(), request, this::emit, ctx.clock());
    }

    /** Adds an event (e.g. Sibling Task Failed) from the alloc runner. */
    public void emit(TaskEvent event) {
        rec.emit(event);
    }

    private void awaitDone(Duration wait) throws InterruptedException {
        if (!started.get()) {
            return;
        }
        try {
            done.get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            // done never fails
        } catch (TimeoutException e) {
            log.warn("task runner did not finish within {}: alloc={} task={}", wait, ctx.alloc().id(), name());
        }
    }

    private String shortId() {
        String id = ctx.alloc().id();
        return id.length() > 8 ? id.substring(0, 8) : id;
    }

    /** The task is not running (Nomad's {@code ErrTaskNotRunning}). */
    public static final class TaskNotRunningException extends Exception {
        public TaskNotRunningException() {
            super("Task not running");
        }
    }
}
