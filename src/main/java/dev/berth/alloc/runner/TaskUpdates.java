package dev.berth.alloc.runner;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskRunner;
import dev.berth.alloc.task.TaskState;

/** How an alloc update changes the set of tasks: which runners it removes and which tasks it adds (by name). */
final class TaskUpdates {

    /**
     * @param removed active runners whose task the updated group no longer lists
     * @param added   tasks of the updated group that have no active runner, in the group's order
     */
    record Diff(List<TaskRunner> removed, List<TaskSpec> added) {
    }

    private TaskUpdates() {
    }

    static Diff diff(Collection<TaskRunner> active, TaskGroupSpec group) {
        Set<String> wanted = group.tasks().stream().map(TaskSpec::name).collect(Collectors.toSet());
        Set<String> have = active.stream().map(TaskRunner::name).collect(Collectors.toSet());
        List<TaskRunner> removed = new ArrayList<>();
        for (TaskRunner tr : active) {
            if (!wanted.contains(tr.name())) {
                removed.add(tr);
            }
        }
        List<TaskSpec> added = group.tasks().stream().filter(t -> !have.contains(t.name())).toList();
        return new Diff(removed, added);
    }

    /**
     * The state of a task an update removed before the agent restarted, as restored: a dead one as stored; one that was
     * not dead yet (the agent stopped during its kill; the start-up reconciliation killed its process) is recorded dead
     * now with {@code Killed} ({@code update missing task}), so a restart never brings it back.
     */
    static TaskState finalStateOfRemoved(AllocRunnerContext ctx, String allocId, String name, TaskState stored) {
        if (stored.dead()) {
            return stored;
        }
        var now = ctx.clock().instant();
        TaskState dead = stored.withEvent(TaskEvent.killed(now, null, TaskRunner.REMOVED_REASON)).withState(TaskState.DEAD, now);
        ctx.store().putTaskState(allocId, name, dead);
        return dead;
    }
}
