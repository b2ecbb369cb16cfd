package dev.berth.alloc;

import java.util.Map;

import dev.berth.alloc.store.AllocRecord;
import dev.berth.alloc.task.TaskState;

/**
 * A read-only snapshot of one allocation for the API.
 *
 * @param record     spec and client status
 * @param taskStates task states by name (group order)
 */
public record AllocView(AllocRecord record, Map<String, TaskState> taskStates) {

    public AllocView {
        taskStates = taskStates == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(taskStates));
    }
}
