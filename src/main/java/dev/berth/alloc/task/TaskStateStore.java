package dev.berth.alloc.task;

/**
 * The part of the allocation store a task runner writes: its task state and its local state (driver handle, hook
 * state, restart counters). Both writes are ignored (false) once the allocation was deleted.
 */
public interface TaskStateStore {

    boolean putTaskState(String allocId, String taskName, TaskState state);

    boolean putTaskLocalState(String allocId, String taskName, TaskLocalState state);
}
