package dev.berth.alloc.task;

import java.util.Objects;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.alloc.TaskLocalState;
import dev.berth.driver.DriverException;
import dev.berth.driver.ExitResult;
import dev.berth.driver.TaskDriver;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.TaskNotFoundException;

/** How a {@link TaskRunner} picks a persisted task up again after an agent restart (issue 7, Nomad §5.10). */
final class TaskRestore {

    private static final Logger log = LoggerFactory.getLogger(TaskRestore.class);

    /** Exit error of a task whose process vanished while the agent was down without leaving an exit status. */
    static final String LOST = "task was lost while the agent was down: no process and no recorded exit status";

    private TaskRestore() {
    }

    /** What was persisted for the task. */
    record Stored(TaskState state, TaskLocalState local) {
        Stored {
            Objects.requireNonNull(state, "'state' must not be null");
            Objects.requireNonNull(local, "'local' must not be null");
        }
    }

    /**
     * The outcome of recovering a handle: the live (or exited-with-status) handle, or, when the driver cannot find the task
     * any more, the exit it is treated as (a failure, so the restart policy decides).
     */
    record Recovered(TaskHandle handle, ExitResult lostExit) {
    }

    static Recovered recover(TaskDriver driver, TaskHandle persisted) {
        try {
            return new Recovered(driver.recover(persisted), null);
        } catch (TaskNotFoundException e) {
            return new Recovered(null, new ExitResult(0, 0, false, LOST));
        } catch (DriverException | RuntimeException e) {
            log.warn("recovering task {} failed; treating it as exited", persisted.taskId(), e);
            // Make sure nothing of it keeps running unknown (Nomad: DestroyTask(force) after a failed recover).
            try {
                driver.destroy(persisted, true);
            } catch (DriverException | RuntimeException ignored) {
                // best effort: the reconciler also kills processes no handle accounts for
            }
            return new Recovered(null, new ExitResult(0, 0, false, "failed to restore task: " + e.getMessage()));
        }
    }
}
