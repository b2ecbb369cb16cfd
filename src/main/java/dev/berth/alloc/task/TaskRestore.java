package dev.berth.alloc.task;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import dev.berth.driver.DriverException;
import dev.berth.driver.ExitResult;
import dev.berth.driver.TaskHandle;

/**
 * Picks a task up after an agent restart, for its {@link TaskRunner}: a dead task stays dead; a running one is re-attached
 * through the driver's {@code recover} (no new Started event), its poststart hooks run again and it is waited on; a task
 * the driver cannot find counts as failed ({@code Failed Restoring Task}) and follows its restart policy.
 */
final class TaskRestore {

    /** How the restored run goes on. */
    enum Outcome {
        /** the run had completed before the agent stopped: nothing more to do */
        COMPLETE,
        /** the task is dead: wait for alloc-wide restarts */
        DONE,
        /** start the task again through the lifecycle gate */
        RESTARTED,
        /** it was pending: start it as usual */
        NOT_STARTED,
        /** the re-attached process is waited for (the waiter given to {@link #restore} has it) */
        WAITING
    }

    private final TaskRunnerContext ctx;
    private final TaskStateRecorder rec;
    private final TaskHookExecutor hooks;
    private final RestartStep restarts;
    private final ExitWatcher exits;
    private final Consumer<TaskEvent> emit;

    TaskRestore(TaskRunnerContext ctx, TaskStateRecorder rec, TaskHookExecutor hooks, RestartStep restarts, ExitWatcher exits,
                Consumer<TaskEvent> emit) {
        this.ctx = ctx;
        this.rec = rec;
        this.hooks = hooks;
        this.restarts = restarts;
        this.exits = exits;
        this.emit = emit;
    }

    /** @param waitFor takes the re-attached process's exit and waits for it (then {@link Outcome#WAITING}) */
    Outcome restore(TaskHookContext hookContext, Consumer<CompletableFuture<ExitResult>> waitFor) throws InterruptedException {
        TaskState restored = rec.state();
        if (restored.dead()) {
            // a run that had not completed waits for an alloc-wide restart again (Nomad skips MAIN, not ALLOC_RESTART)
            return ctx.restoredLocal() != null && ctx.restoredLocal().runComplete() ? Outcome.COMPLETE : Outcome.DONE;
        }
        TaskEvent last = restored.events().isEmpty() ? null : restored.events().getLast();
        if (restored.running() && last != null && TaskEvent.TERMINATED.equals(last.type())) {
            return restarts.afterRecordedExit(last) ? Outcome.RESTARTED : Outcome.DONE;
        }
        TaskHandle h = ctx.restoredLocal() == null ? null : ctx.restoredLocal().handle();
        // Any persisted handle is recovered, also for a task still pending: it crashed between starting the process and
        // its Started event; starting it again would run it twice.
        if (h == null && !restored.running()) {
            return Outcome.NOT_STARTED;
        }
        try {
            if (h == null) {
                // running without a handle: no window of ours persists this; the process cannot be found, so it is lost
                throw new DriverException("no driver handle was persisted for the running task", true);
            }
            TaskHandle recovered = ctx.driver().recover(h);
            rec.attach(recovered);
            rec.persistLocal(false);
            if (!restored.running()) {
                var now = ctx.clock().instant();
                rec.update(s -> s.withEvent(TaskEvent.started(now)).withState(TaskState.RUNNING, now));
            }
            // As Nomad after a restore: poststart hooks see the re-attached task (the stats hook resumes sampling).
            hooks.poststart(hookContext, recovered);
            waitFor.accept(ctx.driver().waitTask(recovered));
            return Outcome.WAITING;
        } catch (DriverException e) {
            emit.accept(TaskEvent.failedRestoring(ctx.clock().instant(), e.getMessage()));
            return restarts.afterFailedRestore(e.getMessage(), exits.killError()) ? Outcome.RESTARTED : Outcome.DONE;
        }
    }
}
