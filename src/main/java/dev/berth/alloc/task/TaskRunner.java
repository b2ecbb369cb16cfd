package dev.berth.alloc.task;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.alloc.task.TaskHooks.HookFailedException;
import dev.berth.driver.DriverException;
import dev.berth.driver.ExitResult;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskHandle;

/**
 * Runs one task on its own virtual thread ({@code berth-task-…}): gate → prestart hooks → driver start → wait → restart
 * policy, until the task is dead, killed or the agent shuts down. Kill and shutdown are two different signals: a kill
 * stops the task; a shutdown only ends the runner and leaves the task running for a later restore.
 *
 * <p>Every wait is bounded by kill/shutdown (and the kill by its timeout): a driver whose future never completes cannot hang
 * the runner (seed 002).
 */
public final class TaskRunner {

    private static final Logger log = LoggerFactory.getLogger(TaskRunner.class);
    static final Duration EXIT_GRACE = TaskStopper.EXIT_GRACE;

    private final TaskRunnerContext ctx;
    private final TaskHookExecutor hooks;
    private volatile TaskHookContext hookContext;
    private final CompletableFuture<Void> killSignal = new CompletableFuture<>();
    private final CompletableFuture<Void> shutdownSignal = new CompletableFuture<>();
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final AtomicBoolean started = new AtomicBoolean();
    private final Set<String> prestartDone = new HashSet<>();
    private final Object stateLock = new Object();
    // guarded by stateLock
    private TaskState state;
    private TaskHandle handle;
    private CompletableFuture<Boolean> restartSignal = new CompletableFuture<>();
    private CompletableFuture<Void> restartAck = new CompletableFuture<>();
    private String killReason;

    public TaskRunner(TaskRunnerContext ctx) {
        this.ctx = ctx;
        this.hooks = new TaskHookExecutor(ctx.hooks(), ctx.listener(), ctx.clock(), ctx.alloc().id(), ctx.task().name());
        this.hookContext = new TaskHookContext(ctx.alloc(), ctx.group(), ctx.task(), ctx.allocDir().path(),
                ctx.allocDir().taskDir(ctx.task().name()), ctx.driver(), this::emit);
        this.state = ctx.restoredState() != null ? ctx.restoredState() : TaskState.initial();
        if (ctx.restoredLocal() != null) {
            prestartDone.addAll(ctx.restoredLocal().prestartDone());
        }
        ctx.coordinator().taskStateChanged(ctx.task().name(), state);
        killSignal.whenComplete((v, e) -> ctx.coordinator().wake());
        shutdownSignal.whenComplete((v, e) -> ctx.coordinator().wake());
    }

    public String name() {
        return ctx.task().name();
    }

    public TaskState state() {
        synchronized (stateLock) {
            return state;
        }
    }

    public CompletableFuture<Void> done() {
        return done;
    }

    /** Emits {@code Received} and starts the run loop on a virtual thread. Called once. */
    public void start() {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        if (ctx.restoredState() == null) {
            emit(TaskEvent.received(ctx.clock().instant()));
        }
        if (killSignal.isDone()) {
            markKilledBeforeStart();
            done.complete(null);
            return;
        }
        Thread.ofVirtual().name("berth-task-" + shortId() + "-" + name()).start(this::run);
    }

    private void run() {
        try {
            runLoop();
            if (!shutdownSignal.isDone() || killSignal.isDone()) {
                hooks.stop(hookContext);
                persistLocal(true);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.error("task runner crashed: alloc={} task={}", ctx.alloc().id(), name(), e);
            update(s -> s.withEvent(TaskEvent.setupFailure(ctx.clock().instant(), "task runner failed: " + e.getMessage()))
                    .withState(TaskState.DEAD, ctx.clock().instant()));
        } finally {
            done.complete(null);
        }
    }

    private void runLoop() throws InterruptedException {
        if (ctx.restoredState() != null) {
            switch (restore()) {
                case DONE -> {
                    return;
                }
                case RESTARTED -> {
                    startLoop();
                    return;
                }
                case NOT_STARTED -> {
                    // pending before the agent stopped: through the gate as usual
                }
            }
        }
        if (!ctx.coordinator().awaitStart(name(), List.of(killSignal, shutdownSignal))) {
            if (!shutdownSignal.isDone() || killSignal.isDone()) {
                markKilledBeforeStart();
            }
            return;
        }
        startLoop();
    }

    private enum Restore { DONE, RESTARTED, NOT_STARTED }

    /**
     * Picks a task up after an agent restart: a dead task stays dead; a running one is re-attached through
     * {@link dev.berth.driver.TaskDriver#recover} without a new Started event, its poststart hooks run again, and it is
     * waited on as usual. A task the
     * driver cannot find counts as failed ({@code Failed Restoring Task}) and follows its restart policy.
     */
    private Restore restore() throws InterruptedException {
        TaskState restored = state();
        if (restored.dead()) {
            return Restore.DONE;
        }
        TaskHandle h = ctx.restoredLocal() == null ? null : ctx.restoredLocal().handle();
        // Any persisted handle is recovered, also for a task still pending: it crashed between starting the process and
        // its Started event (issue 7); starting it again would run it twice.
        if (h == null) {
            return Restore.NOT_STARTED;
        }
        try {
            TaskHandle recovered = ctx.driver().recover(h);
            synchronized (stateLock) {
                handle = recovered;
                restartSignal = new CompletableFuture<>();
                restartAck = new CompletableFuture<>();
            }
            persistLocal(false);
            if (!restored.running()) {
                var now = ctx.clock().instant();
                update(s -> s.withEvent(TaskEvent.started(now)).withState(TaskState.RUNNING, now));
            }
            // As Nomad after a restore: poststart hooks see the re-attached task (the stats hook resumes sampling).
            hooks.poststart(hookContext, recovered);
            return waitAndHandleExit(ctx.driver().waitTask(recovered)) ? Restore.RESTARTED : Restore.DONE;
        } catch (DriverException e) {
            emit(TaskEvent.failedRestoring(ctx.clock().instant(), e.getMessage()));
            ctx.tracker().setExitResult(new ExitResult(0, 0, false, "failed to restore task: " + e.getMessage()));
            return afterExit() ? Restore.RESTARTED : Restore.DONE;
        }
    }

    private void startLoop() throws InterruptedException {
        while (true) {
            if (killSignal.isDone()) {
                markKilledBeforeStart();
                return;
            }
            if (shutdownSignal.isDone()) {
                return;
            }
            CompletableFuture<ExitResult> exit;
            try {
                List<String> devices = new java.util.ArrayList<>();
                Map<String, String> env = hooks.prestart(hookContext, ctx.envBuilder().apply(hookContext), prestartDone, devices);
                TaskHandle h = ctx.driver().start(taskConfig(env, devices));
                synchronized (stateLock) {
                    handle = h;
                    restartSignal = new CompletableFuture<>();
                    restartAck = new CompletableFuture<>();
                }
                persistLocal(false);
                update(s -> s.withEvent(TaskEvent.started(ctx.clock().instant())).withState(TaskState.RUNNING, ctx.clock().instant()));
                ctx.listener().taskStarted(name());
                hooks.poststart(hookContext, h);
                exit = ctx.driver().waitTask(h);
            } catch (HookFailedException e) {
                emit(e.event());
                ctx.tracker().setStartError(e, e.recoverable());
                if (!afterExit()) {
                    return;
                }
                continue;
            } catch (DriverException e) {
                emit(TaskEvent.driverFailure(ctx.clock().instant(), e.getMessage()));
                ctx.tracker().setStartError(e, e.recoverable());
                if (!afterExit()) {
                    return;
                }
                continue;
            }
            if (!waitAndHandleExit(exit)) {
                return;
            }
        }
    }

    /** Waits for the exit, a kill, a restart request or shutdown. Returns whether to start again. */
    private boolean waitAndHandleExit(CompletableFuture<ExitResult> exit) throws InterruptedException {
        CompletableFuture<Boolean> restart;
        synchronized (stateLock) {
            restart = restartSignal;
        }
        try {
            CompletableFuture.anyOf(exit, killSignal, shutdownSignal, restart).get();
        } catch (ExecutionException e) {
            // the driver's future failed: treated as an exit with an error below
        }
        if (shutdownSignal.isDone() && !killSignal.isDone() && !exit.isDone()) {
            hooks.shutdown(hookContext);
            persistLocal(false);
            return false;
        }
        ExitResult result;
        boolean restartRequested = false;
        if (exit.isDone()) {
            result = exitResult(exit);
        } else if (killSignal.isDone()) {
            result = stopTask(exit);
        } else {
            restartRequested = true;
            result = stopTask(exit);
        }
        clearHandle();
        emit(TaskEvent.terminated(ctx.clock().instant(), result));
        if (result.oomKilled()) {
            ctx.listener().taskOomKilled(name());
        }
        hooks.exited(hookContext, result);
        if (killSignal.isDone()) {
            ctx.tracker().setKilled();
        } else if (restartRequested) {
            ctx.tracker().setRestartTriggered(Boolean.TRUE.equals(restart.getNow(false)));
        } else {
            ctx.tracker().setExitResult(result);
        }
        boolean again = afterExit();
        synchronized (stateLock) {
            restartAck.complete(null);
        }
        return again;
    }

    /** Nomad's clearDriverHandle: the exited task is destroyed in the driver (force, errors logged) and forgotten. */
    private void clearHandle() {
        TaskHandle h;
        synchronized (stateLock) {
            h = handle;
            handle = null;
        }
        if (h == null) {
            return;
        }
        try {
            ctx.driver().destroy(h, true);
        } catch (DriverException | RuntimeException e) {
            log.warn("destroying exited task failed: alloc={} task={}", ctx.alloc().id(), name(), e);
        }
    }

    /** Applies the restart decision; waits the delay. Returns whether to start again. */
    private boolean afterExit() throws InterruptedException {
        RestartDecision decision = ctx.tracker().decide();
        persistLocal(false);
        var now = ctx.clock().instant();
        Duration delay;
        String reason;
        switch (decision) {
            case RestartDecision.Killed k -> {
                update(s -> s.withEvent(TaskEvent.killed(now, killReason)).withState(TaskState.DEAD, now));
                return false;
            }
            case RestartDecision.NotRestarting n -> {
                update(s -> s.withEvent(TaskEvent.notRestarting(now, n.reason())).withState(TaskState.DEAD, now));
                return false;
            }
            case RestartDecision.Terminated t -> {
                update(s -> s.withState(TaskState.DEAD, now));
                return false;
            }
            case RestartDecision.Restarting r -> {
                delay = r.delay();
                reason = r.reason();
            }
            // Nomad's unknown state "": restart at once
            case RestartDecision.NoDecision n -> {
                delay = Duration.ZERO;
                reason = "";
            }
        }
        update(s -> s.withEvent(TaskEvent.restarting(now, delay, reason)).withState(TaskState.PENDING, now));
        ctx.listener().taskRestarting(name());
        boolean elapsed = ctx.sleeper().sleep(delay, CompletableFuture.anyOf(killSignal, shutdownSignal));
        if (!elapsed && killSignal.isDone()) {
            var t = ctx.clock().instant();
            update(s -> s.withEvent(TaskEvent.killed(t, null)).withState(TaskState.DEAD, t));
            return false;
        }
        return elapsed || !shutdownSignal.isDone();
    }

    /** PreKill hooks, then the driver stop (retried with backoff), then a bounded wait for the exit. */
    private ExitResult stopTask(CompletableFuture<ExitResult> exit) throws InterruptedException {
        hooks.preKill(hookContext);
        TaskHandle h;
        synchronized (stateLock) {
            h = handle;
        }
        TaskStopper.Stopped stopped = TaskStopper.stop(ctx.driver(), h, killTimeout(), ctx.task().killSignal(), exit, ctx.sleeper(),
                shutdownSignal);
        if (stopped.killError() != null) {
            killReason = stopped.killError();
        }
        return stopped.result();
    }

    /** Nomad's stop backoff: {@code min(5s·4^i, 2m)}. */
    static Duration stopBackoff(int attempt) {
        return TaskStopper.backoff(attempt);
    }

    private void markKilledBeforeStart() {
        var now = ctx.clock().instant();
        update(s -> s.dead() ? s : s.withEvent(TaskEvent.killed(now, null)).withState(TaskState.DEAD, now));
    }

    // ---- control from other threads ----

    /** Fails a task that never ran (alloc prerun failed): Received, the event, dead. Its runner never starts. */
    public void failBeforeStart(TaskEvent event) {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        emit(TaskEvent.received(ctx.clock().instant()));
        update(s -> s.withEvent(event).withState(TaskState.DEAD, ctx.clock().instant()));
        done.complete(null);
    }

    /** Runs the task update hooks for a non-terminal alloc update (the caller serializes updates). */
    public void update(dev.berth.alloc.spec.AllocationSpec alloc) {
        TaskHookContext old = hookContext;
        hookContext = new TaskHookContext(alloc, old.group(), old.task(), old.allocDir(), old.taskDir(), old.driver(), old.events());
        if (alloc.desiredTerminal()) {
            return;
        }
        hooks.update(hookContext, alloc);
    }

    public dev.berth.alloc.spec.TaskSpec task() {
        return ctx.task();
    }

    public boolean started() {
        return started.get();
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
            emit(TaskEvent.killing(ctx.clock().instant(), killTimeout(), reason));
        }
        killSignal.complete(null);
        awaitDone(killTimeout().plus(EXIT_GRACE).plus(Duration.ofSeconds(5)));
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
        CompletableFuture<Void> ack;
        synchronized (stateLock) {
            if (!state.running() || handle == null || restartSignal.isDone()) {
                throw new TaskNotRunningException();
            }
            ack = restartAck;
        }
        emit(TaskEvent.restartSignaled(ctx.clock().instant(), reason));
        synchronized (stateLock) {
            restartSignal.complete(failure);
        }
        try {
            ack.get(killTimeout().plus(EXIT_GRACE).plus(Duration.ofSeconds(5)).toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException | TimeoutException e) {
            log.warn("restart did not finish in time: alloc={} task={}", ctx.alloc().id(), name());
        }
    }

    /** Sends a signal to the running task with a {@code Signaling} event. */
    public void signal(String signal, String reason) throws TaskNotRunningException, DriverException {
        TaskHandle h;
        synchronized (stateLock) {
            if (!state.running() || handle == null) {
                throw new TaskNotRunningException();
            }
            h = handle;
        }
        emit(TaskEvent.signaling(ctx.clock().instant(), signal, reason));
        ctx.driver().signal(h, signal);
    }

    /** Adds an event (e.g. Sibling Task Failed) from the alloc runner. */
    public void emit(TaskEvent event) {
        update(s -> s.withEvent(event));
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

    private void update(Function<TaskState, TaskState> change) {
        TaskState next;
        synchronized (stateLock) {
            next = change.apply(state);
            if (next.equals(state)) {
                return;
            }
            state = next;
            ctx.store().putTaskState(ctx.alloc().id(), name(), next);
        }
        ctx.coordinator().taskStateChanged(name(), next);
        ctx.listener().taskStateChanged(name(), next);
    }

    private void persistLocal(boolean runComplete) {
        TaskHandle h;
        synchronized (stateLock) {
            h = handle;
        }
        ctx.store().putTaskLocalState(ctx.alloc().id(), name(),
                new dev.berth.alloc.TaskLocalState(h, prestartDone, ctx.tracker().counters(), runComplete));
    }

    private Duration killTimeout() {
        Duration t = ctx.task().killTimeoutDuration();
        return t.compareTo(ctx.maxKillTimeout()) > 0 ? ctx.maxKillTimeout() : t;
    }

    private TaskConfig taskConfig(Map<String, String> env, List<String> devices) {
        var t = ctx.task();
        var dir = ctx.allocDir();
        return new TaskConfig(ctx.alloc().id() + "/" + t.name(), ctx.alloc().id(), t.name(), ctx.alloc().job().name(),
                ctx.group().name(), ctx.alloc().namespace(), t.config(), env, dir.path(), dir.taskDir(t.name()),
                dir.stdoutTarget(t.name()), dir.stderrTarget(t.name()), t.cpu(), t.memoryMb(), t.memoryMaxMb(), devices);
    }

    private static ExitResult exitResult(CompletableFuture<ExitResult> exit) {
        try {
            return exit.getNow(null);
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            return new ExitResult(0, 0, false, String.valueOf(cause.getMessage()));
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
