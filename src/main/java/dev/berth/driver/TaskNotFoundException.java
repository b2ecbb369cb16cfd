package dev.berth.driver;

/** The driver does not know the task (Nomad's {@code ErrTaskNotFound}); a stop of such a task counts as done. */
public class TaskNotFoundException extends DriverException {

    public TaskNotFoundException(String taskId) {
        super("task not found: " + taskId, false);
    }
}
