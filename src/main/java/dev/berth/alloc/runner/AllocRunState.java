package dev.berth.alloc.runner;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The alloc runner's one lock and what it guards: where the run is ({@link Phase}, only moving forward) and whether a
 * destroy was asked for. {@link #locked} makes a change to the task runners one step with respect to both: a destroy or
 * the end of the run either sees a task an update adds, or that task is never started. The lock is never held while a
 * task is waited for.
 */
final class AllocRunState {

    /** Where the run is. */
    enum Phase {
        /** the run has not started */
        NEW,
        /** the prerun hooks run; no task runner runs yet */
        PRERUN,
        /** the task runners were started: a task an update adds starts at once */
        TASKS_STARTED,
        /** no task may start any more: prerun failed, or the run ended */
        CLOSED
    }

    /**
     * @param first      no destroy was asked for before
     * @param runStarted the run had started (its end is to be waited for)
     */
    record DestroyRequest(boolean first, boolean runStarted) {
    }

    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private Phase phase = Phase.NEW;
    // guarded by lock
    private boolean destroyRequested;

    /** {@code NEW} → {@code PRERUN}, unless the run started already or a destroy was asked for; whether it moved. */
    boolean beginRun() {
        return locked(() -> {
            if (phase != Phase.NEW || destroyRequested) {
                return false;
            }
            phase = Phase.PRERUN;
            return true;
        });
    }

    DestroyRequest requestDestroy() {
        return locked(() -> {
            boolean first = !destroyRequested;
            destroyRequested = true;
            return new DestroyRequest(first, phase != Phase.NEW);
        });
    }

    Phase phase() {
        return locked(() -> phase);
    }

    void moveTo(Phase next) {
        locked(() -> phase = next);
    }

    /** Whether the run is past prerun: its tasks were started (or failed before they could). */
    boolean tasksLaunched() {
        return locked(() -> phase == Phase.TASKS_STARTED || phase == Phase.CLOSED);
    }

    /** Whether no task may start: the run ended or a destroy was asked for. */
    boolean closedForNewTasks() {
        return locked(() -> phase == Phase.CLOSED || destroyRequested);
    }

    /** Runs {@code change} holding the lock: no phase change and no destroy request happens meanwhile. Reentrant. */
    <T> T locked(Supplier<T> change) {
        lock.lock();
        try {
            return change.get();
        } finally {
            lock.unlock();
        }
    }
}
