package dev.berth.alloc.hooks;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import dev.berth.alloc.runner.AllocRunner;

/**
 * Waits for an allocation's previous allocation (Nomad's {@code allocwatcher}): a replacement alloc must not start while
 * its predecessor on this node still runs. Only local predecessors are watched; one this node does not know never
 * blocks (Berth has no server to ask about remote ones).
 *
 * <p>The wait ends when the predecessor's run loop ended (its tasks are dead), or is cancelled when the waiting alloc
 * is stopped, destroyed or the agent shuts down. {@link #waiting()} feeds the {@code allocations.blocked} gauge.
 */
public final class PrevAllocWatcher {

    /** How the wait ended. */
    public enum Outcome {
        /** No local previous alloc: nothing to wait for or migrate from. */
        NONE,
        /** The previous alloc is terminal. */
        TERMINATED,
        /** The agent is shutting down: return without starting anything. */
        SHUTDOWN
    }

    private final Function<String, Optional<AllocRunner>> runners;
    private final Duration poll;
    private final AtomicInteger waiting = new AtomicInteger();

    /**
     * @param runners the node's alloc runners by id
     * @param poll    how often the waiting alloc's own stop/shutdown is checked while waiting
     */
    public PrevAllocWatcher(Function<String, Optional<AllocRunner>> runners, Duration poll) {
        this.runners = runners;
        this.poll = poll;
    }

    /** Allocations blocked on a previous one right now. */
    public int waiting() {
        return waiting.get();
    }

    Optional<AllocRunner> runner(String id) {
        return id == null || id.isEmpty() ? Optional.empty() : runners.apply(id);
    }

    /**
     * Blocks until the previous alloc of {@code allocId} is terminal.
     *
     * @param cancel completed by the waiting alloc's kill/destroy hooks
     * @throws CancellationException the waiting alloc was stopped or destroyed meanwhile
     */
    public Outcome await(String allocId, String previousId, CompletableFuture<Void> cancel) throws InterruptedException {
        Optional<AllocRunner> prev = runner(previousId);
        if (prev.isEmpty()) {
            return Outcome.NONE;
        }
        Optional<AllocRunner> self = runner(allocId);
        CompletableFuture<Void> done = prev.get().runDone();
        waiting.incrementAndGet();
        try {
            while (!done.isDone()) {
                if (self.isPresent() && self.get().shuttingDown()) {
                    return Outcome.SHUTDOWN;
                }
                if (cancel.isDone() || self.isPresent() && self.get().stopRequested()) {
                    throw new CancellationException("stopped while waiting for previous allocation " + previousId);
                }
                try {
                    CompletableFuture.anyOf(done, cancel).get(poll.toNanos(), TimeUnit.NANOSECONDS);
                } catch (TimeoutException | ExecutionException e) {
                    // poll again
                }
            }
            return Outcome.TERMINATED;
        } finally {
            waiting.decrementAndGet();
        }
    }
}
