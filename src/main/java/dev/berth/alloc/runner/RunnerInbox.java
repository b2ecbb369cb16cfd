package dev.berth.alloc.runner;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A runner's inbox. Instead of a thread parked on it, the one reader asks for a future that the next message completes
 * ({@link #arrival()}) and goes on once it did, so an allocation whose tasks run costs no parked thread and no stack while
 * it waits. Any thread may {@link #offer}; one thread at a time reads.
 */
final class RunnerInbox<M> {

    private final ReentrantLock lock = new ReentrantLock();
    // guarded by lock
    private final ArrayDeque<M> messages = new ArrayDeque<>();
    // guarded by lock: completed by the next offer; null while nobody waits
    private CompletableFuture<Void> arrival;

    /** Adds a message and completes the reader's {@link #arrival()}, if it waits (its continuation must be short). */
    void offer(M message) {
        CompletableFuture<Void> waiting;
        lock.lock();
        try {
            messages.add(message);
            waiting = arrival;
            arrival = null;
        } finally {
            lock.unlock();
        }
        if (waiting != null) {
            waiting.complete(null);
        }
    }

    /** The next message, or null when there is none. */
    M poll() {
        lock.lock();
        try {
            return messages.poll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Completes at the next {@link #offer}; already complete when a message waits (one offered since the last
     * {@link #poll} that found none is never missed).
     */
    CompletableFuture<Void> arrival() {
        lock.lock();
        try {
            if (!messages.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            if (arrival == null) {
                arrival = new CompletableFuture<>();
            }
            return arrival;
        } finally {
            lock.unlock();
        }
    }
}
