package dev.berth.alloc.task;

import java.time.Clock;
import java.util.concurrent.CompletableFuture;

import dev.berth.driver.ExitResult;

/**
 * The task runner's {@code EXITED} phase, as Nomad's {@code WAIT} block and {@code handleKill}: once the wait for a running
 * process ended, stops the process when a kill or a restart request ended it (prekill hooks, then {@link TaskStopper});
 * then forgets the handle, emits {@code Terminated}, runs the exited hooks and tells the restart tracker why the process
 * ended. On agent shutdown the process keeps running and nothing is recorded.
 */
final class ExitStep {

    /**
     * A started process, as the wait for it began.
     *
     * @param restartRequest its restart request ({@link TaskStateRecorder#restartSignal()})
     * @param context        the hook context when it started (an update may replace the runner's meanwhile)
     */
    record Started(CompletableFuture<ExitResult> exit, CompletableFuture<Boolean> restartRequest, TaskHookContext context) {

        /** What ends the wait for it: its exit, a kill, a restart request or the shutdown. */
        CompletableFuture<Object> waitEnds(CompletableFuture<Void> kill, CompletableFuture<Void> shutdown) {
            return CompletableFuture.anyOf(exit, kill, shutdown, restartRequest);
        }
    }

    private final TaskStopper stopper;
    private final TaskHookExecutor hooks;
    private final TaskStateRecorder rec;
    private final RestartTracker tracker;
    private final Clock clock;
    // why the last stop did not end cleanly (the Killed event's kill_error), or null
    private String killError;

    ExitStep(TaskStopper stopper, TaskHookExecutor hooks, TaskStateRecorder rec, RestartTracker tracker, Clock clock) {
        this.stopper = stopper;
        this.hooks = hooks;
        this.rec = rec;
        this.tracker = tracker;
        this.clock = clock;
    }

    /** Why the last stop did not end cleanly (the {@code Killed} event's {@code kill_error}), or null. */
    String killError() {
        return killError;
    }

    /**
     * @param oomKilled told when the kernel's OOM killer ended the process
     * @return false when the agent shuts down and the process keeps running; true when its end was recorded and the
     *         restart tracker knows the cause
     */
    boolean handle(Started process, CompletableFuture<Void> kill, CompletableFuture<Void> shutdown, Runnable oomKilled)
            throws InterruptedException {
        CompletableFuture<ExitResult> exit = process.exit();
        if (shutdown.isDone() && !kill.isDone() && !exit.isDone()) {
            hooks.shutdown(process.context());
            rec.persistLocal(false);
            return false;
        }
        boolean restartRequested = !exit.isDone() && !kill.isDone();
        ExitResult result = exit.isDone() ? TaskStopper.exitResult(exit) : stop(process, shutdown);
        stopper.destroyExited(rec.detach());
        rec.emit(TaskEvent.terminated(clock.instant(), result));
        if (result.oomKilled()) {
            oomKilled.run();
        }
        hooks.exited(process.context(), result);
        if (kill.isDone()) {
            tracker.setKilled();
        } else if (restartRequested) {
            tracker.setRestartTriggered(Boolean.TRUE.equals(process.restartRequest().getNow(false)));
        } else {
            tracker.setExitResult(result);
        }
        return true;
    }

    /** PreKill hooks, then the driver stop (retried with backoff, cut short by the shutdown), then a bounded wait. */
    private ExitResult stop(Started process, CompletableFuture<Void> shutdown) throws InterruptedException {
        hooks.preKill(process.context());
        TaskStopper.Stopped stopped = stopper.stop(rec.handle(), process.exit(), shutdown);
        if (stopped.killError() != null) {
            killError = stopped.killError();
        }
        return stopped.result();
    }
}
