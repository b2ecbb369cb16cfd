package dev.berth.alloc.store;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.berth.alloc.task.TaskLocalState;
import dev.berth.alloc.task.TaskState;
import dev.berth.alloc.task.TaskStateStore;

/**
 * Port: durable state of allocations and their tasks. Implemented in memory (tests) and with H2 through Spring JDBC in
 * {@code state}; both pass {@code AllocStateStoreContract}.
 *
 * <p>Contract: every method is thread-safe and each write is atomic. Once {@link #deleteAlloc} ran for an ID, that
 * allocation is a tombstone: every later write for it (alloc, task state, local state) is ignored and returns false, so a
 * late write from a runner that is still winding down can never resurrect a destroyed allocation. Task writes for an
 * allocation that was never stored are ignored too.
 */
public interface AllocStateStore extends TaskStateStore {

    /** Inserts or replaces the allocation. False (and nothing written) if it was deleted. */
    boolean putAlloc(AllocRecord alloc);

    Optional<AllocRecord> alloc(String allocId);

    /** Every stored (not deleted) allocation. */
    List<AllocRecord> allocs();

    @Override
    boolean putTaskState(String allocId, String taskName, TaskState state);

    /** Task states by task name. */
    Map<String, TaskState> taskStates(String allocId);

    @Override
    boolean putTaskLocalState(String allocId, String taskName, TaskLocalState state);

    Optional<TaskLocalState> taskLocalState(String allocId, String taskName);

    /**
     * Every persisted local state of every stored allocation, keyed {@code <allocId>/<taskName>} — one read for the start-up
     * reconciliation instead of one per task. The default reads them one by one.
     */
    default Map<String, TaskLocalState> allTaskLocalStates() {
        Map<String, TaskLocalState> all = new java.util.HashMap<>();
        for (AllocRecord rec : allocs()) {
            rec.spec().group().ifPresent(g -> g.tasks().forEach(t ->
                    taskLocalState(rec.id(), t.name()).ifPresent(l -> all.put(rec.id() + "/" + t.name(), l))));
        }
        return all;
    }

    /**
     * Persists that the allocation is to be destroyed, before the destroy starts: an agent that stops before the
     * destroy finished finishes it at its next start. False (nothing written) if the allocation is not stored.
     */
    boolean markDestroying(String allocId);

    /** IDs of stored allocations whose destroy was asked for and not finished ({@link #deleteAlloc} clears it). */
    java.util.Set<String> destroying();

    /**
     * Stores the allocation's submitted document and indexes beside its record. False (nothing written) when the
     * allocation is not stored or was deleted; {@link #deleteAlloc} removes it with the allocation.
     */
    boolean putDocument(String allocId, AllocDocument document);

    /** Every stored allocation's document by ID (read once at start-up). */
    Map<String, AllocDocument> documents();

    /** Removes everything of the allocation and tombstones its ID. Idempotent. */
    void deleteAlloc(String allocId);

    /** Whether the ID was deleted. */
    boolean isDeleted(String allocId);
}
