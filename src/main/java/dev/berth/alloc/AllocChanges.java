package dev.berth.alloc;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Consumer;

import dev.berth.alloc.store.AllocDocument;
import dev.berth.events.ChangeFeed;
import dev.berth.events.IndexStore;
import dev.berth.events.NodeIndex;
import dev.berth.events.Topic;

/**
 * The allocations' side of the node's modify index: every change of an allocation — a submission (create, update,
 * stop) or a client-side change (a task state, the client status) — takes the next index from the {@link ChangeFeed},
 * moves the allocation's {@code ModifyIndex} (and {@code ModifyTime}) to it in memory, and is published on
 * {@link Topic#Allocation} with the allocation's {@link AllocView} after the change as payload, so blocking queries and
 * the event stream wake on it. Submissions also move {@code AllocModifyIndex} and are persisted with the submitted
 * document ({@link AllocDocument}); client-side indexes live in memory only (after a restart an allocation's
 * {@code ModifyIndex} restarts from its {@code AllocModifyIndex}, which never exceeds any index handed out since).
 *
 * <p>Event types: {@code AllocationUpdated} for every change (Nomad's type for creates, updates and client updates),
 * {@code AllocationUpdateDesiredStatus} for a stop, and Berth's own {@code AllocationDeleted} when an allocation is
 * destroyed (Nomad never reports a reaped allocation; list queries must still wake on it).
 */
public final class AllocChanges {

    public static final String UPDATED = "AllocationUpdated";
    public static final String DESIRED_STATUS = "AllocationUpdateDesiredStatus";
    public static final String DELETED = "AllocationDeleted";

    /** What the node knows of one allocation's indexes. */
    public record Entry(AllocDocument document, long modifyIndex, long modifyTimeNs) {
    }

    private final ChangeFeed feed;
    private final Clock clock;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong tableIndex = new AtomicLong();
    private volatile Function<String, Optional<AllocView>> views = id -> Optional.empty();

    public AllocChanges(ChangeFeed feed, Clock clock) {
        this.feed = feed;
        this.clock = clock;
    }

    /** A feed of its own on an in-memory index (unit tests, an alloc service without the agent's feed). */
    public static AllocChanges standalone(Clock clock) {
        IndexStore memory = new IndexStore() {
            private volatile long highWater;

            @Override
            public long highWater() {
                return highWater;
            }

            @Override
            public void reserveThrough(long mark) {
                highWater = mark;
            }
        };
        return new AllocChanges(new ChangeFeed(new NodeIndex(memory)), clock);
    }

    void views(Function<String, Optional<AllocView>> lookup) {
        this.views = lookup;
    }

    public ChangeFeed feed() {
        return feed;
    }

    /** The index of the last change of any allocation (the allocs table's index); 0 before the first. */
    public long tableIndex() {
        return tableIndex.get();
    }

    public Optional<Entry> entry(String allocId) {
        return Optional.ofNullable(entries.get(allocId));
    }

    private long nowNs() {
        Instant now = clock.instant();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /**
     * A new allocation: reserves the index, runs {@code write} with the new document (store the record and start the runner), then
     * persists the document and publishes. {@code write} throwing abandons the index.
     */
    void created(String allocId, String namespace, Map<String, Object> submitted, Consumer<AllocDocument> write) {
        try (ChangeFeed.Pending pending = feed.begin()) {
            long index = pending.index();
            long now = nowNs();
            AllocDocument doc = new AllocDocument(submitted, index, index, now);
            entries.put(allocId, new Entry(doc, index, now));
            try {
                write.accept(doc);
            } catch (RuntimeException e) {
                entries.remove(allocId);
                throw e;
            }
            publish(pending, allocId, namespace, UPDATED);
        }
    }

    /** An accepted update or stop of a known allocation: new document, {@code AllocModifyIndex} and {@code ModifyIndex}. */
    AllocDocument resubmitted(String allocId, String namespace, Map<String, Object> submitted, boolean stop) {
        try (ChangeFeed.Pending pending = feed.begin()) {
            long index = pending.index();
            long now = nowNs();
            Entry updated = entries.compute(allocId, (id, e) -> {
                AllocDocument doc = e == null ? new AllocDocument(submitted, index, index, now) : e.document().resubmitted(submitted, index);
                return new Entry(doc, index, now);
            });
            publish(pending, allocId, namespace, stop ? DESIRED_STATUS : UPDATED);
            return updated.document();
        }
    }

    /** A client-side change (task state, client status): moves {@code ModifyIndex} and publishes. */
    void touched(String allocId) {
        Entry current = entries.get(allocId);
        if (current == null) {
            return;
        }
        try (ChangeFeed.Pending pending = feed.begin()) {
            long index = pending.index();
            long now = nowNs();
            Entry after = entries.computeIfPresent(allocId, (id, e) -> index > e.modifyIndex() ? new Entry(e.document(), index, now) : e);
            if (after == null) {
                return;
            }
            String namespace = views.apply(allocId).map(v -> v.record().spec().namespace()).orElse(null);
            publish(pending, allocId, namespace, UPDATED);
        }
    }

    /** The allocation was destroyed: forgotten, and list queries wake. */
    void removed(String allocId, String namespace) {
        try (ChangeFeed.Pending pending = feed.begin()) {
            Optional<AllocView> last = views.apply(allocId);
            entries.remove(allocId);
            tableIndex.accumulateAndGet(pending.index(), Math::max);
            pending.publish(Topic.Allocation, DELETED, allocId, namespace, last.orElse(null));
        }
    }

    /**
     * Agent start: an allocation restored from the store. With no stored document (an allocation stored before
     * documents existed) it gets a fresh index.
     */
    void restored(String allocId, String namespace, AllocDocument stored) {
        if (stored != null) {
            entries.put(allocId, new Entry(stored, stored.allocModifyIndex(), stored.createTimeNs()));
            tableIndex.accumulateAndGet(stored.allocModifyIndex(), Math::max);
            return;
        }
        try (ChangeFeed.Pending pending = feed.begin()) {
            long index = pending.index();
            long now = nowNs();
            entries.put(allocId, new Entry(new AllocDocument(null, index, index, now), index, now));
            publish(pending, allocId, namespace, UPDATED);
        }
    }

    private void publish(ChangeFeed.Pending pending, String allocId, String namespace, String type) {
        tableIndex.accumulateAndGet(pending.index(), Math::max);
        pending.publish(Topic.Allocation, type, allocId, namespace, views.apply(allocId).orElse(null));
    }
}
