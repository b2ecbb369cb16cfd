package dev.berth.alloc.task;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * Nomad's {@code shouldRestart} plus the restart delay: after an exit or a failed start, applies the restart tracker's
 * decision to the task state ({@code Killed}, {@code Not Restarting}, dead, or {@code Restarting} with the delay) and waits
 * the delay, interrupted by kill or shutdown. The delay is exactly the one the tracker returned (bug #4909).
 */
final class RestartStep {

    private final TaskRunnerContext ctx;
    private final TaskStateRecorder rec;
    private final CompletableFuture<Void> killSignal;
    private final CompletableFuture<Void> shutdownSignal;

    RestartStep(TaskRunnerContext ctx, TaskStateRecorder rec, CompletableFuture<Void> killSignal,
                CompletableFuture<Void> shutdownSignal) {
        this.ctx = ctx;
        this.rec = rec;
        this.killSignal = killSignal;
        this.shutdownSignal = shutdownSignal;
    }

    /**
     * Applies the decision and waits the delay.
     *
     * @param killError  why the kill did not end cleanly (the {@code Killed} event's {@code kill_error}), or null
     * @param killReason the kill's reason for the {@code Killed} event ({@code kill_reason}), or null
     * @return whether to start again
     */
    boolean afterExit(String killError, String killReason) throws InterruptedException {
        RestartDecision decision = ctx.tracker().decide();
        rec.persistLocal(false);
        var now = ctx.clock().instant();
        Duration delay;
        String reason;
        RestartRule rule = decision.rule();
        switch (decision) {
            case RestartDecision.Killed k -> {
                rec.update(s -> s.withEvent(TaskEvent.killed(now, killError, killReason)).withState(TaskState.DEAD, now));
                return false;
            }
            case RestartDecision.NotRestarting n -> {
                TaskEvent event = n.rule() instanceof RestartRule.ExitRule exitRule
                        ? TaskEvent.notRestarting(now, n.reason(), exitRule, true) : TaskEvent.notRestarting(now, n.reason());
                rec.update(s -> s.withEvent(event).withState(TaskState.DEAD, now));
                return false;
            }
            case RestartDecision.Terminated t -> {
                // Nomad records no event for a task that is done; one an exit rule ended says which rule
                rec.update(s -> t.rule() instanceof RestartRule.ExitRule exitRule
                        ? s.withEvent(TaskEvent.notRestarting(now, t.reason(), exitRule, false)).withState(TaskState.DEAD, now)
                        : s.withState(TaskState.DEAD, now));
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
        rec.update(s -> s.withEvent(TaskEvent.restarting(now, delay, reason, rule)).withState(TaskState.PENDING, now));
        ctx.listener().taskRestarting(rec.name());
        boolean elapsed = ctx.sleeper().sleep(delay, CompletableFuture.anyOf(killSignal, shutdownSignal));
        if (!elapsed && killSignal.isDone()) {
            var t = ctx.clock().instant();
            rec.update(s -> s.withEvent(TaskEvent.killed(t, null, killReason)).withState(TaskState.DEAD, t));
            return false;
        }
        return elapsed || !shutdownSignal.isDone();
    }

    /**
     * Nomad's {@code ALLOC_RESTART} wait: a dead task (not poststop) stays here while its alloc lives, so an alloc-wide
     * restart ({@link #forceRestart}) can run it again, without delay and without using up an attempt. The alloc runner
     * ends the wait once no task of the alloc is alive (a kill without event); shutdown ends it too.
     *
     * @return true to start again
     */
    boolean awaitAllocRestart() throws InterruptedException {
        if (ctx.task().isPoststop() || !rec.state().dead() || killSignal.isDone() || shutdownSignal.isDone()) {
            return false;
        }
        CompletableFuture<Void> restart = rec.openAllocRestart();
        try {
            CompletableFuture.anyOf(restart, killSignal, shutdownSignal).get();
        } catch (ExecutionException e) {
            // none of them fails
        } finally {
            rec.closeAllocRestart();
        }
        if (killSignal.isDone() || shutdownSignal.isDone()) {
            return false;
        }
        ctx.tracker().setRestartTriggered(false);
        return afterExit(null, null);
    }

    /**
     * The exit was recorded (its Terminated event), then the agent died before the restart decision: decides now on the
     * recorded exit, without a second Terminated event (the old process is gone; its stale handle is not recovered).
     */
    boolean afterRecordedExit(TaskEvent terminated) throws InterruptedException {
        ctx.tracker().setExitResult(new dev.berth.driver.ExitResult(terminated.exitCode(), terminated.signal(),
                "true".equals(terminated.details().get("oom_killed")), terminated.details().get("exit_message")));
        return afterExit(null, null);
    }

    /** A task that could not be re-attached after an agent restart counts as failed and follows its restart policy. */
    boolean afterFailedRestore(String why, String killError) throws InterruptedException {
        ctx.tracker().setExitResult(new dev.berth.driver.ExitResult(0, 0, false, "failed to restore task: " + why));
        return afterExit(killError, null);
    }
}
