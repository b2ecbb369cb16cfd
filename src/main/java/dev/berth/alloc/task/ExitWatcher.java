package dev.berth.alloc.task;

import java.util.concurrent.CompletableFuture;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.driver.DriverException;
import dev.berth.driver.ExitResult;
import dev.berth.driver.TaskHandle;

/**
 * Watches one started process (Nomad's {@code WAIT} block plus {@code handleKill}): waits for its exit, a kill, a restart
 * request or agent shutdown; on kill or restart stops it ({@link TaskStopper}); then forgets the handle, emits
 * {@code Terminated}, runs the exited hooks and tells the restart tracker what happened. Used by one part of the run at a time.
 */
final class ExitWatcher {

    private static final Logger log = LoggerFactory.getLogger(ExitWatcher.class);

    private final TaskRunnerContext ctx;
    private final TaskStateRecorder rec;
    private final TaskHookExecutor hooks;
    private final CompletableFuture<Void> killSignal;
    private final CompletableFuture<Void> shutdownSignal;
    // why the last kill did not end cleanly, or null
    private String killError;

    ExitWatcher(TaskRunnerContext ctx, TaskStateRecorder rec, TaskHookExecutor hooks, CompletableFuture<Void> killSignal,
                CompletableFuture<Void> shutdownSignal) {
        this.ctx = ctx;
        this.rec = rec;
        this.hooks = hooks;
        this.killSignal = killSignal;
        this.shutdownSignal = shutdownSignal;
    }

    /** Why the last kill did not end cleanly (the {@code Killed} event's {@code kill_error}), or null. */
    String killError() {
        return killError;
    }

    /**
     * What ends the wait for a running process: its exit, a kill, a restart request or agent shutdown. Nothing waits on it
     * with a thread: the runner continues in {@link #handle} once it completes (a parked thread per running task would
     * hold its stack for as long as the task runs).
     *
     * @param restart the restart request to watch ({@link TaskStateRecorder#restartSignal()}), given to {@link #handle} too
     */
    CompletableFuture<Object> wakeUp(CompletableFuture<ExitResult> exit, CompletableFuture<Boolean> restart) {
        return CompletableFuture.anyOf(exit, killSignal, shutdownSignal, restart);
    }

    /**
     * Records the end of the process once {@link #wakeUp} completed: stops it first on a kill or restart request.
     *
     * @return false when the agent shuts down and the process keeps running (nothing recorded); true when its end was
     *         recorded and the restart tracker knows the cause
     */
    boolean handle(CompletableFuture<ExitResult> exit, CompletableFuture<Boolean> restart, TaskHookContext hookContext)
            throws InterruptedException {
        if (shutdownSignal.isDone() && !killSignal.isDone() && !exit.isDone()) {
            hooks.shutdown(hookContext);
            rec.persistLocal(false);
            return false;
        }
        ExitResult result;
        boolean restartRequested = false;
        if (exit.isDone()) {
            result = TaskStopper.exitResult(exit);
        } else if (killSignal.isDone()) {
            result = stop(exit, hookContext);
        } else {
            restartRequested = true;
            result = stop(exit, hookContext);
        }
        clearHandle();
        rec.emit(TaskEvent.terminated(ctx.clock().instant(), result));
        if (result.oomKilled()) {
            ctx.listener().taskOomKilled(rec.name());
        }
        hooks.exited(hookContext, result);
        if (killSignal.isDone()) {
            ctx.tracker().setKilled();
        } else if (restartRequested) {
            ctx.tracker().setRestartTriggered(Boolean.TRUE.equals(restart.getNow(false)));
        } else {
            ctx.tracker().setExitResult(result);
        }
        return true;
    }

    /** PreKill hooks, then the driver stop (retried with backoff), then a bounded wait for the exit. */
    private ExitResult stop(CompletableFuture<ExitResult> exit, TaskHookContext hookContext) throws InterruptedException {
        hooks.preKill(hookContext);
        TaskStopper.Stopped stopped = TaskStopper.stop(ctx.driver(), rec.handle(), ctx.killTimeout(), ctx.task().killSignal(), exit,
                ctx.sleeper(), shutdownSignal);
        if (stopped.killError() != null) {
            killError = stopped.killError();
        }
        return stopped.result();
    }

    /** Nomad's clearDriverHandle: the exited task is destroyed in the driver (force, errors logged) and forgotten. */
    private void clearHandle() {
        TaskHandle h = rec.detach();
        if (h == null) {
            return;
        }
        try {
            ctx.driver().destroy(h, true);
        } catch (DriverException | RuntimeException e) {
            log.warn("destroying exited task failed: alloc={} task={}", ctx.alloc().id(), rec.name(), e);
        }
    }
}
