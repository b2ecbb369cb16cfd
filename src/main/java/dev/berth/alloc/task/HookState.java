package dev.berth.alloc.task;

import java.util.List;
import java.util.Map;

import dev.berth.driver.TaskDevice;

/**
 * What a prestart hook that reported done leaves behind (Nomad's {@code HookState}): persisted with the task's local state,
 * so the hook is skipped on later starts and after an agent restart while its env and its device nodes/mounts still apply.
 *
 * @param done    the hook need not run again
 * @param env     the environment variables it added
 * @param devices the device nodes and mounts it handed to the driver (its data)
 */
public record HookState(boolean done, Map<String, String> env, List<TaskDevice> devices) {

    public HookState {
        env = env == null ? Map.of() : Map.copyOf(env);
        devices = devices == null ? List.of() : List.copyOf(devices);
    }
}
