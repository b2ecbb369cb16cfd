package dev.berth.alloc;

import java.util.Map;

import dev.berth.alloc.store.AllocDocument;
import dev.berth.alloc.store.AllocRecord;
import dev.berth.alloc.task.TaskState;

/**
 * A read-only snapshot of one allocation for the API, served from memory.
 *
 * @param record       spec and client status
 * @param taskStates   task states by name (group order)
 * @param document     the last accepted submission, whole, with its creation indexes (never null)
 * @param modifyIndex  the node index of the allocation's last change ({@code ModifyIndex})
 * @param modifyTimeNs when that change happened, Unix nanoseconds ({@code ModifyTime})
 */
public record AllocView(AllocRecord record, Map<String, TaskState> taskStates, AllocDocument document, long modifyIndex,
                        long modifyTimeNs) {

    public AllocView {
        taskStates = taskStates == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(taskStates));
        document = document == null ? new AllocDocument(null, modifyIndex, modifyIndex, modifyTimeNs) : document;
    }

    public AllocView(AllocRecord record, Map<String, TaskState> taskStates) {
        this(record, taskStates, null, 0, 0);
    }
}
