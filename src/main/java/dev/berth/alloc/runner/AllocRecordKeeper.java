package dev.berth.alloc.runner;

import java.util.Collection;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.store.AllocRecord;
import dev.berth.alloc.store.AllocStateStore;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.alloc.task.TaskState;

/**
 * One alloc's {@link AllocRecord} (spec and client status) and its persistence. Writes are serialized and persisted under
 * one lock; readers see the latest record without locking.
 */
final class AllocRecordKeeper {

    /** A client status change: {@code oldStatus} → {@code newStatus} (equal when only the description changed or none). */
    record StatusChange(String oldStatus, String newStatus) {
        boolean changed() {
            return !oldStatus.equals(newStatus);
        }
    }

    private final AllocStateStore store;
    private final Object lock = new Object();
    // written under lock
    private volatile AllocRecord record;

    AllocRecordKeeper(AllocStateStore store, AllocRecord initial) {
        this.store = store;
        this.record = initial;
    }

    AllocRecord get() {
        return record;
    }

    /** Applies and persists a newer spec. */
    void setSpec(AllocationSpec spec) {
        synchronized (lock) {
            record = record.withSpec(spec);
            store.putAlloc(record);
        }
    }

    /** Derives the client status from the task states (Nomad's {@code getClientStatus}); persists it when it changed. */
    StatusChange derive(Collection<TaskState> states) {
        synchronized (lock) {
            ClientStatus.Derived derived = ClientStatus.derive(states);
            String old = record.clientStatus();
            if (!derived.status().equals(record.clientStatus()) || !derived.description().equals(record.clientDescription())) {
                record = record.withStatus(derived.status(), derived.description());
                store.putAlloc(record);
            }
            return new StatusChange(old, derived.status());
        }
    }

    /**
     * Crash window "task state persisted, client status not yet derived": the stored status of a restored alloc may lag
     * its stored task states (pending while a task runs). Derives it at restore; nothing else would, because a
     * reattached running task changes no state.
     */
    void deriveRestored(Collection<TaskState> states) {
        StatusChange change = derive(states);
        if (change.changed()) {
            org.slf4j.LoggerFactory.getLogger(AllocRunner.class).info(
                    "restored allocation: client status re-derived from its task states: alloc={} {} -> {}",
                    record.spec().id(), change.oldStatus(), change.newStatus());
        }
    }
}
