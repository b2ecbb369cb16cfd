package dev.berth.alloc.runner;

import java.time.Clock;
import java.util.List;

import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskRunner;

/**
 * What a task's death means for the rest of its alloc (Nomad's {@code handleTaskStateUpdates}), decided on the alloc
 * thread: a failed task kills its siblings ({@code Sibling Task Failed}), a dead leader kills the others
 * ({@code Leader Task Dead}), sidecars left alone are killed ({@code Main Tasks Dead}); once no task but poststop ones
 * is alive, the dead tasks waiting for an alloc-wide restart are released. A task an update removed fails nobody and
 * leads nobody.
 */
final class TaskDeaths {

    /** Kills the alloc's tasks in Nomad's order ({@link AllocRunner#killTasks}). */
    @FunctionalInterface
    interface Killer {
        void killTasks(String reason) throws InterruptedException;
    }

    private final TaskRunnerSet tasks;
    private final Clock clock;
    private final Killer killer;
    // written on the alloc thread once a sibling/leader kill was started
    private volatile boolean groupKilled;

    TaskDeaths(TaskRunnerSet tasks, Clock clock, Killer killer) {
        this.tasks = tasks;
        this.clock = clock;
        this.killer = killer;
    }

    boolean groupKilled() {
        return groupKilled;
    }

    /** Sibling failed, leader dead, only sidecars left: tell the live tasks and kill them. */
    void taskDead(String name) throws InterruptedException {
        TaskRunner dead = tasks.get(name);
        boolean removed = dead == null;
        if ((dead != null && dead.task().isPoststop()) || groupKilled) {
            return;
        }
        var now = clock.instant();
        TaskEvent event;
        if (!removed && dead.state().failed()) {
            event = TaskEvent.siblingFailed(now, name);
        } else if (!removed && dead.task().isLeader()) {
            event = TaskEvent.leaderDead(now);
        } else if (liveTasks().stream().noneMatch(tr -> tr.task().isMain()) && liveTasks().stream().anyMatch(tr -> tr.task().sidecar())) {
            event = TaskEvent.mainDead(now);
        } else {
            return;
        }
        List<TaskRunner> live = liveTasks();
        if (live.isEmpty()) {
            return;
        }
        groupKilled = true;
        live.forEach(tr -> tr.emit(event));
        killer.killTasks(event.type());
    }

    /**
     * Nomad's ALLOC_RESTART release: once no task but poststop ones is alive, the dead tasks waiting for an alloc-wide
     * restart are let go (a kill without event: their runs complete).
     */
    void releaseIfAllDead() throws InterruptedException {
        List<TaskRunner> nonPoststop = tasks.active().stream().filter(tr -> !tr.task().isPoststop()).toList();
        if (nonPoststop.stream().allMatch(tr -> tr.state().dead()) && nonPoststop.stream().anyMatch(tr -> !tr.done().isDone())) {
            for (TaskRunner tr : nonPoststop) {
                tr.kill(null);
            }
        }
    }

    private List<TaskRunner> liveTasks() {
        return tasks.active().stream().filter(tr -> !tr.task().isPoststop() && !tr.done().isDone() && !tr.state().dead()).toList();
    }
}
