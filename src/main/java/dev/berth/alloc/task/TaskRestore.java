package dev.berth.alloc.task;

import java.time.Clock;

import dev.berth.driver.DriverException;
import dev.berth.driver.ExitResult;
import dev.berth.driver.TaskDriver;
import dev.berth.driver.TaskHandle;

/**
 * Where a task's run goes on after an agent restart (the task runner's {@code RESTORING} phase): a dead task stays dead; a
 * running one is re-attached through the driver's {@code recover} (no new Started event) and waited on; a task the driver
 * cannot find counts as failed ({@code Failed Restoring Task}) and follows its restart policy, as does a task whose exit was
 * recorded just before the agent stopped.
 */
final class TaskRestore {

    /**
     * @param next      the phase the run goes on in
     * @param recovered the re-attached process when {@code next} is {@code RUNNING}, else null
     */
    record Resumed(TaskRunner.Phase next, TaskHandle recovered) {
        static Resumed in(TaskRunner.Phase next) {
            return new Resumed(next, null);
        }
    }

    private final TaskDriver driver;
    private final TaskStateRecorder rec;
    private final Clock clock;

    TaskRestore(TaskDriver driver, TaskStateRecorder rec, Clock clock) {
        this.driver = driver;
        this.rec = rec;
        this.clock = clock;
    }

    /**
     * @param local   the persisted local state (driver handle, run complete), or null when none was stored
     * @param tracker told why the process ended when the restart policy is to decide next
     */
    Resumed resume(TaskLocalState local, RestartTracker tracker) {
        TaskState restored = rec.state();
        if (restored.dead()) {
            // a run that had not completed waits for an alloc-wide restart again (Nomad skips MAIN, not ALLOC_RESTART)
            return Resumed.in(local != null && local.runComplete() ? TaskRunner.Phase.OVER : TaskRunner.Phase.DEAD);
        }
        TaskEvent last = restored.events().isEmpty() ? null : restored.events().getLast();
        if (restored.running() && last != null && TaskEvent.TERMINATED.equals(last.type())) {
            // The exit was recorded, then the agent died before the restart decision: decide now on the recorded exit,
            // without a second Terminated event (the old process is gone; its stale handle is not recovered).
            tracker.setExitResult(new ExitResult(last.exitCode(), last.signal(), "true".equals(last.details().get("oom_killed")),
                    last.details().get("exit_message")));
            return Resumed.in(TaskRunner.Phase.RESTARTING);
        }
        TaskHandle h = local == null ? null : local.handle();
        // Any persisted handle is recovered, also for a task still pending: it crashed between starting the process and
        // its Started event; starting it again would run it twice.
        if (h == null && !restored.running()) {
            return Resumed.in(TaskRunner.Phase.PRESTART);
        }
        try {
            if (h == null) {
                // running without a handle: no window of ours persists this; the process cannot be found, so it is lost
                throw new DriverException("no driver handle was persisted for the running task", true);
            }
            TaskHandle recovered = driver.recover(h);
            rec.attach(recovered);
            rec.persistLocal(false);
            if (!restored.running()) {
                var now = clock.instant();
                rec.update(s -> s.withEvent(TaskEvent.started(now)).withState(TaskState.RUNNING, now));
            }
            return new Resumed(TaskRunner.Phase.RUNNING, recovered);
        } catch (DriverException e) {
            // a task that could not be re-attached counts as failed and follows its restart policy
            rec.emit(TaskEvent.failedRestoring(clock.instant(), e.getMessage()));
            tracker.setExitResult(new ExitResult(0, 0, false, "failed to restore task: " + e.getMessage()));
            return Resumed.in(TaskRunner.Phase.RESTARTING);
        }
    }
}
