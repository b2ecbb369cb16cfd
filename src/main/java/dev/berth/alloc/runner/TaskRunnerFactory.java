package dev.berth.alloc.runner;

import java.util.Map;
import java.util.function.Consumer;

import dev.berth.alloc.fs.AllocDir;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.task.TaskCoordinator;
import dev.berth.alloc.task.TaskLocalState;
import dev.berth.alloc.task.TaskRunner;
import dev.berth.alloc.task.TaskRunnerContext;
import dev.berth.alloc.task.TaskState;

/**
 * Builds the task runners of one alloc, new or restored: each gets its driver, restart tracker and the alloc's lifecycle
 * coordinator, reports its state through a {@link TaskStateRelay}, and tells the alloc runner's inbox when it died and
 * when its run is over.
 */
final class TaskRunnerFactory {

    private final AllocRunnerContext ctx;
    private final AllocDir dir;
    private final AllocRecordKeeper record;
    private final TaskRunnerSet tasks;
    private final TaskCoordinator coordinator;
    private final Consumer<AllocMessage> inbox;

    TaskRunnerFactory(AllocRunnerContext ctx, AllocDir dir, AllocRecordKeeper record, TaskRunnerSet tasks,
                      TaskCoordinator coordinator, Consumer<AllocMessage> inbox) {
        this.ctx = ctx;
        this.dir = dir;
        this.record = record;
        this.tasks = tasks;
        this.coordinator = coordinator;
        this.inbox = inbox;
    }

    /**
     * Adds a runner for every task of the group; with {@code restoring}, each from its stored state and local state (running
     * tasks are re-attached when the runner starts), and the final states of the tasks an update removed before the agent
     * restarted ({@link TaskUpdates#finalStateOfRemoved}).
     */
    void addAll(AllocationSpec spec, TaskGroupSpec group, boolean restoring) {
        Map<String, TaskState> stored = restoring ? ctx.store().taskStates(spec.id()) : Map.of();
        for (TaskSpec task : group.tasks()) {
            TaskLocalState local = restoring ? ctx.store().taskLocalState(spec.id(), task.name()).orElse(null) : null;
            TaskState state = restoring ? stored.getOrDefault(task.name(), TaskState.initial()) : null;
            tasks.add(create(spec, group, task, state, local));
        }
        stored.forEach((name, state) -> {
            if (group.tasks().stream().noneMatch(t -> t.name().equals(name))) {
                tasks.addRemovedBeforeRestart(name, TaskUpdates.finalStateOfRemoved(ctx, spec.id(), name, state));
            }
        });
    }

    /** A runner for a task an update added. */
    TaskRunner create(AllocationSpec spec, TaskGroupSpec group, TaskSpec task) {
        return create(spec, group, task, null, null);
    }

    private TaskRunner create(AllocationSpec spec, TaskGroupSpec group, TaskSpec task, TaskState restoredState,
                              TaskLocalState local) {
        var listener = new TaskStateRelay(spec.id(), record, tasks, ctx.listener(), dead -> inbox.accept(new AllocMessage.TaskDied(dead)));
        var trCtx = new TaskRunnerContext(spec, group, task, dir, ctx.drivers().apply(task.driver()), ctx.taskHooks(), ctx.store(),
                ctx.trackers().create(spec, task, local == null ? null : local.restarts()), coordinator, ctx.clock(), ctx.sleeper(),
                ctx.maxKillTimeout(), ctx.envBuilder(), listener, restoredState, local);
        TaskRunner tr = new TaskRunner(trCtx);
        tr.done().whenComplete((v, e) -> inbox.accept(new AllocMessage.TaskRunOver(task.name())));
        return tr;
    }
}
