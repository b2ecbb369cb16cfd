package dev.berth.alloc.task;

import java.util.Set;

import dev.berth.driver.TaskHandle;

/**
 * What a task runner needs to pick a task up again after an agent restart (Nomad's {@code LocalState}).
 *
 * @param handle       the driver handle, or null before the first start
 * @param prestartDone names of prestart hooks that reported done (skipped on later starts)
 * @param restarts     restart-tracker counters
 * @param runComplete  whether the runner's run loop finished
 */
public record TaskLocalState(TaskHandle handle, Set<String> prestartDone, RestartTracking.Counters restarts, boolean runComplete) {

    public TaskLocalState {
        prestartDone = prestartDone == null ? Set.of() : Set.copyOf(prestartDone);
    }

    public static TaskLocalState empty() {
        return new TaskLocalState(null, Set.of(), null, false);
    }
}
