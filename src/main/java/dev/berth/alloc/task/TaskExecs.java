package dev.berth.alloc.task;

import java.time.Clock;
import java.util.function.Consumer;

import dev.berth.driver.DriverException;
import dev.berth.driver.ExecSession;
import dev.berth.driver.TaskDriver;
import dev.berth.driver.TaskHandle;

/** {@code alloc exec} for a {@link TaskRunner}: starts the session in the running task and ties its life to the task's. */
final class TaskExecs {

    private TaskExecs() {
    }

    /**
     * Starts {@code request} through the task's driver and emits an {@code Exec} event. The session is killed when this
     * run of the task ends (its exit, a kill, a restart), whatever its client does.
     *
     * @param running the task's handle while it runs, else null
     */
    static ExecSession start(TaskDriver driver, TaskHandle running, ExecSession.Request request, Consumer<TaskEvent> emit,
            Clock clock) throws TaskRunner.TaskNotRunningException, DriverException {
        if (running == null) {
            throw new TaskRunner.TaskNotRunningException();
        }
        ExecSession session = driver.exec(running, request);
        emit.accept(TaskEvent.exec(clock.instant(), request.command(), request.tty()));
        driver.waitTask(running).whenComplete((exit, error) -> session.kill());
        return session;
    }
}
