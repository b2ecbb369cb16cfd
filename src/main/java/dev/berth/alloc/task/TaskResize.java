package dev.berth.alloc.task;


import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.ResourcesSpec;
import dev.berth.alloc.spec.TaskSize;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.driver.DriverException;
import dev.berth.driver.ResizeResult;
import dev.berth.driver.TaskHandle;

/**
 * Gives a running task the size an alloc update decided ({@link ResizeDecision}): the driver writes it in place and the
 * task gets a {@code Resized} event, or, when the decision or the driver says it cannot be done in place, the task is
 * restarted (its next start has the new size) with a {@code Restart Signaled} event that says why. A task that does not
 * run takes the new size at its next start, without an event.
 */
final class TaskResize {

    private static final Logger log = LoggerFactory.getLogger(TaskResize.class);

    /** Restarts the running task announcing {@code event}; false when it was not running any more. */
    interface Restarter {
        boolean restart(TaskEvent event) throws InterruptedException;
    }

    private final TaskRunnerContext ctx;
    private final Restarter restarter;

    TaskResize(TaskRunnerContext ctx, Restarter restarter) {
        this.ctx = ctx;
        this.restarter = restarter;
    }

    /** The task of {@code task}'s name in {@code alloc}'s group, else {@code task}. */
    static TaskSpec taskIn(AllocationSpec alloc, TaskSpec task) {
        return alloc.group().flatMap(g -> g.tasks().stream().filter(t -> t.name().equals(task.name())).findFirst()).orElse(task);
    }

    /** {@code task} with the resources of {@code size} (its networks, devices and secrets size kept). */
    static TaskSpec sized(TaskSpec task, TaskSize size) {
        if (TaskSize.of(task).equals(size)) {
            return task;
        }
        ResourcesSpec r = task.resources();
        return task.withResources(new ResourcesSpec(size.cpuMhz(), size.memoryMb(), size.memoryMaxMb() == 0 ? null : size.memoryMaxMb(),
                r == null ? null : r.networks(), r == null ? null : r.devices(), r == null ? null : r.secretsMb(),
                size.cores() == 0 && (r == null || r.cores() == null) ? null : size.cores()));
    }

    /**
     * Carries out {@code decision} for the process of {@code running} (null: the task does not run), whose spec is now
     * {@code now} (the new size). Returns what was done: {@link ResizeDecision.InPlace}, a {@link ResizeDecision.Replace}
     * (restarted), or the decision unchanged when there was nothing to do.
     */
    ResizeDecision apply(ResizeDecision decision, TaskHandle running, TaskHookContext now) throws InterruptedException {
        if (running == null || decision instanceof ResizeDecision.Unchanged) {
            return decision;
        }
        ResizeDecision done = decision instanceof ResizeDecision.InPlace inPlace ? write(inPlace, running, now) : decision;
        switch (done) {
            case ResizeDecision.InPlace(TaskSize from, TaskSize to) -> now.events().accept(TaskEvent.resized(ctx.clock().instant(), from, to));
            case ResizeDecision.Replace(TaskSize from, TaskSize to, String why) -> {
                log.info("restarting task to resize it: alloc={} task={} from {} to {}: {}", now.alloc().id(), now.task().name(), from, to, why);
                restarter.restart(TaskEvent.resizeByRestart(ctx.clock().instant(), from, to, why));
            }
            case ResizeDecision.Unchanged u -> { }
        }
        return done;
    }

    private ResizeDecision write(ResizeDecision.InPlace inPlace, TaskHandle running, TaskHookContext now) {
        Interpolator env = ctx.envBuilder().apply(now);
        try {
            ResizeResult result = ctx.driver().resize(running, ctx.taskConfig(now.alloc(), now.task(), env, List.of()));
            return switch (result) {
                case ResizeResult.Applied a -> inPlace;
                case ResizeResult.Refused(String reason) -> inPlace.refused(reason);
            };
        } catch (DriverException | RuntimeException e) {
            log.warn("driver failed to resize: alloc={} task={}", now.alloc().id(), now.task().name(), e);
            return inPlace.refused("the driver failed to resize the task: " + e.getMessage());
        }
    }
}
