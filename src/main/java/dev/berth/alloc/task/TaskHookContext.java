package dev.berth.alloc.task;

import java.nio.file.Path;
import java.util.function.Consumer;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.driver.TaskDriver;

/**
 * What a task hook may see and do: the alloc, group and task specs, the directories, the task's driver and an event
 * emitter. Never the runner itself.
 *
 * @param alloc    the current allocation spec
 * @param group    the task group
 * @param task     the task
 * @param allocDir host path of {@code <data-dir>/alloc/<id>}
 * @param taskDir  host path of the task directory
 * @param driver   the task's driver
 * @param events   emits a task event (persisted, counted)
 */
public record TaskHookContext(AllocationSpec alloc, TaskGroupSpec group, TaskSpec task, Path allocDir, Path taskDir,
                              TaskDriver driver, Consumer<TaskEvent> events) {

    /** Where the handle's task runs, as its driver tells it (the drivers' common state keys when no driver is given). */
    public dev.berth.host.TaskProcess process(dev.berth.driver.TaskHandle handle) {
        return driver == null ? dev.berth.driver.TaskHandles.process(handle) : driver.process(handle);
    }
}
