package dev.berth.variables;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import org.springframework.stereotype.Component;

import dev.berth.events.ChangeFeed;
import dev.berth.events.Topic;
import dev.berth.variables.VariableStore.Row;

/**
 * Every change of a variable goes through here, one at a time: a check and the write it decides on run under one lock
 * ({@link #locked}), so a check-and-set or a lock check can never be overtaken by another write. Each write takes the
 * node's next modify index from the {@link ChangeFeed}, stores the row with it and publishes a {@code Variable} change
 * (Nomad's {@code VariableUpdated}, metadata only), so blocking queries and the event stream see it.
 */
@Component
class VariableWriter {

    static final String UPDATED = "VariableUpdated";

    private final VariableStore store;
    private final ChangeFeed feed;
    private final VariableCipher cipher;
    private final Clock clock;
    private final Object writeLock = new Object();

    VariableWriter(VariableStore store, ChangeFeed feed, VariableCipher cipher, Clock clock) {
        this.store = store;
        this.feed = feed;
        this.cipher = cipher;
        this.clock = clock;
    }

    <T> T locked(Supplier<T> work) {
        synchronized (writeLock) {
            return work.get();
        }
    }

    Optional<Row> current(String namespace, String path) {
        return store.get(namespace, path);
    }

    /** The stored variable in clear ({@code UNREADABLE} when its key is gone). */
    Variable open(Row row) {
        return new Variable(row.meta(), cipher.open(row.meta().namespace(), row.meta().path(), row.items()));
    }

    /** Writes {@code items} with {@code lock} over {@code existing} (or as a new variable): a new modify index. */
    Variable write(String namespace, String path, Map<String, String> items, VariableLock lock, Optional<Row> existing) {
        try (ChangeFeed.Pending pending = feed.begin()) {
            long now = nanos(clock.instant());
            VariableMeta meta = existing
                    .map(row -> new VariableMeta(namespace, path, lock, row.meta().createIndex(), row.meta().createTime(),
                            pending.index(), now))
                    .orElseGet(() -> new VariableMeta(namespace, path, lock, pending.index(), now, pending.index(), now));
            store.put(new Row(meta, cipher.seal(namespace, path, items)));
            pending.publish(Topic.Variable, UPDATED, path, namespace, new VariableEvent(meta, false));
            return new Variable(meta, items);
        }
    }

    /** Gives {@code existing} another lock (or none), its items untouched: a new modify index. */
    VariableMeta relock(Row existing, VariableLock lock) {
        try (ChangeFeed.Pending pending = feed.begin()) {
            VariableMeta meta = existing.meta().withLock(lock).modified(pending.index(), nanos(clock.instant()));
            store.put(new Row(meta, existing.items()));
            pending.publish(Topic.Variable, UPDATED, meta.path(), meta.namespace(), new VariableEvent(meta, false));
            return meta;
        }
    }

    /** Deletes {@code existing}: the table index moves to a new modify index, which the answer carries. */
    long delete(Row existing) {
        try (ChangeFeed.Pending pending = feed.begin()) {
            VariableMeta meta = existing.meta();
            store.delete(meta.namespace(), meta.path(), pending.index());
            // as Nomad's event for a delete: the metadata the variable had
            pending.publish(Topic.Variable, UPDATED, meta.path(), meta.namespace(), new VariableEvent(meta, true));
            return pending.index();
        }
    }

    static long nanos(Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }
}
