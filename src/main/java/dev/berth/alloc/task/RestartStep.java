package dev.berth.alloc.task;

import dev.berth.config.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Nomad's {@code shouldRestart} plus the restart delay, for the task runner's {@code RESTARTING} phase: applies the restart
 * tracker's decision to the task state ({@code Killed}, {@code Not Restarting}, dead, or {@code Restarting} with the delay)
 * and waits the delay, cut short by a kill or the shutdown. The delay is exactly the one the tracker returned (Nomad bug
 * #4909).
 */
final class RestartStep {

    private final RestartTracker tracker;
    private final TaskStateRecorder rec;
    private final Sleeper sleeper;
    private final Clock clock;

    RestartStep(RestartTracker tracker, TaskStateRecorder rec, Sleeper sleeper, Clock clock) {
        this.tracker = tracker;
        this.rec = rec;
        this.sleeper = sleeper;
        this.clock = clock;
    }

    /**
     * Applies the decision and waits the delay.
     *
     * @param killError  why the last stop did not end cleanly (the {@code Killed} event's {@code kill_error}), or null
     * @param killReason the kill's reason for the {@code Killed} event ({@code kill_reason}), or null
     * @param restarting told when the task restarts (before the delay)
     * @param kill       a kill ends the delay and the task is dead
     * @param shutdown   the agent's shutdown ends the delay
     * @return whether to start again: false when the task is dead, or the delay was cut short
     */
    boolean decide(String killError, String killReason, Runnable restarting, CompletableFuture<Void> kill,
                   CompletableFuture<Void> shutdown) throws InterruptedException {
        RestartDecision decision = tracker.decide();
        rec.persistLocal(false);
        var now = clock.instant();
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
        restarting.run();
        boolean elapsed = sleeper.sleep(delay, CompletableFuture.anyOf(kill, shutdown));
        if (!elapsed && kill.isDone()) {
            var t = clock.instant();
            rec.update(s -> s.withEvent(TaskEvent.killed(t, null, killReason)).withState(TaskState.DEAD, t));
            return false;
        }
        return !shutdown.isDone();
    }
}
