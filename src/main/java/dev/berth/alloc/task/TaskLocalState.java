package dev.berth.alloc.task;

import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

import dev.berth.driver.TaskHandle;

/**
 * What a task runner needs to pick a task up again after an agent restart (Nomad's {@code LocalState}).
 *
 * @param handle      the driver handle, or null before the first start
 * @param hooks       by hook name, the state of each prestart hook that reported done (skipped on later starts, its env and
 *                    devices re-applied)
 * @param restarts    restart-tracker counters
 * @param runComplete whether the runner's run loop finished
 */
public record TaskLocalState(TaskHandle handle, Map<String, HookState> hooks, RestartTracker.Counters restarts, boolean runComplete) {

    public TaskLocalState {
        hooks = hooks == null ? Map.of() : Map.copyOf(hooks);
    }

    /**
     * Reads both forms: {@code Hooks} and, as written before hook state was kept whole, {@code prestartDone} (names of done
     * hooks; their env was never kept, so they come back with none, as they applied before).
     */
    @JsonCreator
    static TaskLocalState fromJson(@JsonProperty("handle") TaskHandle handle, @JsonProperty("hooks") Map<String, HookState> hooks,
                                   @JsonProperty("prestartDone") Set<String> prestartDone,
                                   @JsonProperty("restarts") RestartTracker.Counters restarts, @JsonProperty("runComplete") boolean runComplete) {
        Map<String, HookState> all = new java.util.HashMap<>();
        if (prestartDone != null) {
            prestartDone.forEach(name -> all.put(name, new HookState(true, Map.of(), java.util.List.of())));
        }
        if (hooks != null) {
            all.putAll(hooks);
        }
        return new TaskLocalState(handle, all, restarts, runComplete);
    }

    public static TaskLocalState empty() {
        return new TaskLocalState(null, Map.of(), null, false);
    }
}
