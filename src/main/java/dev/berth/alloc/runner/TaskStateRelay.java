package dev.berth.alloc.runner;

import java.util.function.Consumer;

import dev.berth.alloc.task.TaskRunnerContext;
import dev.berth.alloc.task.TaskState;

/**
 * One task's listener in its alloc: derives and persists the client status on every task change, reports the change to
 * the alloc listener (metrics) and queues a task that just died for the alloc's sibling/leader logic. Never blocks.
 */
final class TaskStateRelay implements TaskRunnerContext.TaskListener {

    private final String allocId;
    private final AllocRecordKeeper record;
    private final TaskRunnerSet tasks;
    private final AllocRunnerContext.AllocListener listener;
    private final Consumer<String> deadTasks;
    private volatile TaskState last = TaskState.initial();

    TaskStateRelay(String allocId, AllocRecordKeeper record, TaskRunnerSet tasks, AllocRunnerContext.AllocListener listener,
                   Consumer<String> deadTasks) {
        this.allocId = allocId;
        this.record = record;
        this.tasks = tasks;
        this.listener = listener;
        this.deadTasks = deadTasks;
    }

    @Override
    public void taskStateChanged(String name, TaskState state) {
        TaskState old = last;
        last = state;
        AllocRecordKeeper.StatusChange change = record.derive(tasks.statesWith(name, state));
        listener.taskStateChanged(allocId, name, old, state);
        if (change.changed()) {
            listener.clientStatusChanged(allocId, change.oldStatus(), change.newStatus());
        }
        if (state.dead() && !old.dead()) {
            deadTasks.accept(name);
        }
    }

    @Override
    public void taskStarted(String name) {
        listener.taskStarted(allocId, name);
    }

    @Override
    public void taskRestarting(String name) {
        listener.taskRestarting(allocId, name);
    }

    @Override
    public void taskOomKilled(String name) {
        listener.taskOomKilled(allocId, name);
    }

    @Override
    public void hookTimed(String hook, String phase, long nanos) {
        listener.hookTimed(hook, phase, nanos);
    }
}
