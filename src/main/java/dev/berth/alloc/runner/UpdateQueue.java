package dev.berth.alloc.runner;

import java.util.concurrent.atomic.AtomicReference;

import dev.berth.alloc.spec.AllocationSpec;

/** An alloc's queued update: latest wins, by {@code AllocModifyIndex}. Any thread may queue or read; one takes. */
final class UpdateQueue {

    private final AtomicReference<AllocationSpec> queued = new AtomicReference<>();

    /** Queues {@code spec} unless a newer one is queued. */
    void queue(AllocationSpec spec) {
        queued.accumulateAndGet(spec, (cur, next) -> cur == null || next.modifyIndex() > cur.modifyIndex() ? next : cur);
    }

    /** Takes the queued update, or null. */
    AllocationSpec take() {
        return queued.getAndSet(null);
    }

    /** The newest accepted spec: the queued one when it is newer than {@code applied}, else {@code applied}. */
    AllocationSpec latest(AllocationSpec applied) {
        AllocationSpec q = queued.get();
        return q != null && q.modifyIndex() > applied.modifyIndex() ? q : applied;
    }

    /** Whether the queued update, if any, stops the alloc. */
    boolean stopQueued() {
        AllocationSpec q = queued.get();
        return q != null && q.desiredTerminal();
    }
}
