package dev.berth.events;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Every change of the node's state, in index order: the one place that hands out modify indexes (through
 * {@link NodeIndex}), keeps the most recent changes in a bounded journal, and wakes the requests that wait for a change
 * (blocking queries, the event stream). Nothing here holds a thread per waiter: a waiter is a {@link CompletableFuture},
 * and its timeout runs on the JDK's shared delay scheduler.
 *
 * <p>A writer first {@link #begin() reserves} an index, writes its state with it, then {@link Pending#publish publishes}
 * the change. Changes can be published out of index order by concurrent writers; readers of the journal only ever see
 * changes up to the {@link #horizon()}, below which every reserved index has been published or abandoned, so a reader
 * that resumes "after index n" can never skip a change that was still being written.
 */
@Component
public class ChangeFeed implements SmartLifecycle {

    /**
     * How many recent changes the journal keeps by default ({@code berth.events.buffer-size}). Each held change keeps
     * its object as it was (an allocation with its task states and events), and the journal stays full once the node is
     * quiet again, so this is what a busy phase leaves on the heap. Nomad's server keeps 100
     * ({@code event_buffer_size}); a stream or blocking query that falls behind the journal starts again from the
     * oldest change held.
     */
    public static final int DEFAULT_CAPACITY = 256;

    private final NodeIndex nodeIndex;
    private final int capacity;
    private final Object reserveLock = new Object();
    private final NavigableSet<Long> inFlight = new ConcurrentSkipListSet<>();
    private final ConcurrentSkipListMap<Long, Change> journal = new ConcurrentSkipListMap<>();
    private final AtomicInteger journalSize = new AtomicInteger();
    private final AtomicLong discardedThrough = new AtomicLong();
    private final Set<Waiter> waiters = ConcurrentHashMap.newKeySet();
    private volatile boolean released;
    private volatile boolean running;

    public ChangeFeed(NodeIndex nodeIndex) {
        this(nodeIndex, DEFAULT_CAPACITY);
    }

    @Autowired
    public ChangeFeed(NodeIndex nodeIndex, EventStreamProperties properties) {
        this(nodeIndex, properties.bufferSize());
    }

    ChangeFeed(NodeIndex nodeIndex, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.nodeIndex = nodeIndex;
        this.capacity = capacity;
    }

    /** The last index handed out (0 before the first change on a new node). */
    public long currentIndex() {
        return nodeIndex.current();
    }

    /** Reserves the next index for a change about to be written. Close the result without publishing to abandon it. */
    public Pending begin() {
        synchronized (reserveLock) {
            long index = nodeIndex.next();
            inFlight.add(index);
            return new Pending(index);
        }
    }

    /** Reserves an index and publishes the change at once, for writers with nothing to persist under the index. */
    public Change publish(Topic topic, String type, String key, String namespace, Object payload) {
        try (Pending pending = begin()) {
            return pending.publish(topic, type, key, namespace, payload);
        }
    }

    /** The highest index below which (inclusive) every reserved index has been published or abandoned. */
    public long horizon() {
        synchronized (reserveLock) {
            // ceiling, not isEmpty() + first(): a publish removes its index outside the lock, so the set may empty in between
            Long lowest = inFlight.ceiling(Long.MIN_VALUE);
            return lowest == null ? nodeIndex.current() : lowest - 1;
        }
    }

    /** The lowest index the journal still holds, or 0 when it is empty. */
    public long oldestHeld() {
        Map.Entry<Long, Change> first = journal.firstEntry();
        return first == null ? 0 : first.getKey();
    }

    /** The highest index the journal has discarded to stay within its capacity; 0 while it has discarded none. */
    public long discardedThrough() {
        return discardedThrough.get();
    }

    /**
     * The journal's changes with an index above {@code afterIndex} and at most the {@link #horizon()}, matching
     * {@code filter}, oldest first, at most {@code max} of them.
     */
    public List<Change> changesAfter(long afterIndex, Predicate<Change> filter, int max) {
        long horizon = horizon();
        List<Change> out = new ArrayList<>();
        for (Change change : journal.subMap(afterIndex, false, horizon, true).values()) {
            if (out.size() >= max) {
                break;
            }
            if (filter.test(change)) {
                out.add(change);
            }
        }
        return out;
    }

    /**
     * Completes with the index of the first change above {@code afterIndex} that matches {@code filter} (one already in
     * the journal, or the next one published), or with 0 when {@code timeout} passes first. When the journal has
     * already discarded changes above {@code afterIndex} (a caller further behind than the journal is long), it
     * completes at once with the highest discarded index, since one of those may have matched: the caller reads again
     * and waits from there. Cancelling the future forgets the waiter.
     */
    public CompletableFuture<Long> awaitChange(long afterIndex, Predicate<Change> filter, Duration timeout) {
        Objects.requireNonNull(filter, "filter");
        Waiter waiter = new Waiter(afterIndex, filter, new CompletableFuture<>());
        waiters.add(waiter);
        waiter.future.whenComplete((index, error) -> waiters.remove(waiter));
        // A change published between the caller's read and this registration is already in the journal, or discarded.
        long discarded = discardedThrough.get();
        if (discarded > afterIndex) {
            waiter.future.complete(discarded);
            return waiter.future;
        }
        for (Change change : journal.tailMap(afterIndex, false).values()) {
            if (filter.test(change)) {
                waiter.future.complete(change.index());
                return waiter.future;
            }
        }
        if (released) { // checked after the registration: a release running now either completes it or is seen here
            waiter.future.complete(0L);
            return waiter.future;
        }
        long nanos = Math.max(0, timeout.toNanos());
        waiter.future.completeOnTimeout(0L, nanos, TimeUnit.NANOSECONDS);
        return waiter.future;
    }

    /**
     * Answers every waiting request now, as if its wait had run out (with 0), and every later one at once, until
     * {@link #resumeWaiting()}. For the agent's stop: a long poll (a blocking query waits up to 10 minutes) must not
     * hold the web server's graceful shutdown for its whole phase, and its client gets an answer instead of a dropped
     * connection.
     */
    public void releaseWaiters() {
        released = true;
        for (Waiter waiter : waiters) {
            waiter.future.complete(0L);
        }
    }

    /** True between {@link #releaseWaiters()} and {@link #resumeWaiting()}: the agent is stopping. */
    public boolean released() {
        return released;
    }

    /** Waiting is back to normal (the agent started again after a stop). */
    public void resumeWaiting() {
        released = false;
    }

    @Override
    public void start() {
        running = true;
        resumeWaiting();
    }

    /**
     * The agent stops: every long poll and event stream is answered or ended now. Runs in the default (first-stopped)
     * phase, before the web server's graceful shutdown, which would otherwise wait for them for its whole phase.
     */
    @Override
    public void stop() {
        running = false;
        releaseWaiters();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** How many changes the journal holds now (at most its capacity). */
    public int held() {
        return journalSize.get();
    }

    /** How many changes the journal keeps at most ({@code berth.events.buffer-size}). */
    public int capacity() {
        return capacity;
    }

    /** How many requests are waiting for a change right now (an answered waiter no longer counts). */
    public int waiting() {
        return (int) waiters.stream().filter(waiter -> !waiter.future.isDone()).count();
    }

    private void append(Change change) {
        journal.put(change.index(), change);
        if (journalSize.incrementAndGet() > capacity) {
            Map.Entry<Long, Change> oldest = journal.firstEntry();
            // recorded before the removal: a reader that misses the change then sees that it was discarded
            if (oldest != null) {
                discardedThrough.accumulateAndGet(oldest.getKey(), Math::max);
                if (journal.remove(oldest.getKey()) != null) {
                    journalSize.decrementAndGet();
                }
            }
        }
    }

    private void wake(Change change) {
        for (Waiter waiter : waiters) {
            if (change.index() > waiter.afterIndex && waiter.filter.test(change)) {
                waiter.future.complete(change.index());
            }
        }
    }

    private record Waiter(long afterIndex, Predicate<Change> filter, CompletableFuture<Long> future) {
    }

    /** An index reserved for a change being written. */
    public final class Pending implements AutoCloseable {

        private final long index;
        private boolean done;

        private Pending(long index) {
            this.index = index;
        }

        /** The index the change is to be written with. */
        public long index() {
            return index;
        }

        /** Publishes the change under this index; wakes the matching waiters. */
        public Change publish(Topic topic, String type, String key, String namespace, Object payload) {
            Change change = new Change(index, topic, type, key, namespace, payload);
            synchronized (this) {
                if (done) {
                    throw new IllegalStateException("index " + index + " was already published or abandoned");
                }
                done = true;
            }
            append(change);
            inFlight.remove(index);
            // woken only once the index is out of flight, so a reader it wakes finds the change below the horizon
            wake(change);
            return change;
        }

        /** Abandons the index if it was not published: readers stop waiting for it. */
        @Override
        public void close() {
            synchronized (this) {
                if (done) {
                    return;
                }
                done = true;
            }
            inFlight.remove(index);
        }
    }
}
