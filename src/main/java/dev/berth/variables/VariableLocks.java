package dev.berth.variables;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import dev.berth.namespace.NamespaceService;
import dev.berth.variables.VariableException.Kind;
import dev.berth.variables.VariableOutcome.Conflict;
import dev.berth.variables.VariableOutcome.Written;
import dev.berth.variables.VariableStore.Row;

/**
 * Variable locks as Nomad's servers keep them ({@code nomad/locks.go}): an acquire writes the variable with a lock (a
 * new lock ID unless the holder gives its own) and starts a lease; the holder renews it within twice the lock's TTL
 * (Nomad's grace for network and processing delays). A lease not renewed in time lapses: renewing it is refused, yet
 * the lock stays on the variable for its {@code LockDelay} (no one else acquires it meanwhile: Chubby's lock-delay
 * against split brains), then it is removed from the variable, a write like any other.
 *
 * <p>Leases live in memory, as Nomad's timers do: at start every lock found in the store gets a fresh lease of twice
 * its TTL. Whether a lease has lapsed is read from the injected {@link Clock} at every lock operation, so the answers
 * never depend on when the sweeper last ran; the sweeper (once a second) only makes a lapsed lock's removal happen
 * when nobody touches the variable, so that readers, blocking queries and the event stream see it.
 */
@Component
public class VariableLocks implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(VariableLocks.class);
    private static final Duration SWEEP_EVERY = Duration.ofSeconds(1);

    private record Key(String namespace, String path) {
    }

    /** A held lock's lease: renewable until {@code renewBy}, removed from the variable at {@code renewBy + delay}. */
    private record Lease(String lockId, Instant renewBy, Duration delay) {
        Instant removeAt() {
            return renewBy.plus(delay);
        }
    }

    private final VariableStore store;
    private final VariableWriter writer;
    private final Clock clock;
    private final NamespaceService namespaces;
    /** Changed only under the writer's lock. */
    private final Map<Key, Lease> leases = new ConcurrentHashMap<>();
    private volatile ScheduledExecutorService sweeper;

    VariableLocks(VariableStore store, VariableWriter writer, Clock clock, NamespaceService namespaces) {
        this.store = store;
        this.writer = writer;
        this.clock = clock;
        this.namespaces = namespaces;
    }

    /**
     * Takes the lock of the variable at {@code path}, creating the variable if needed; its items become
     * {@code items} (as Nomad's acquire overwrites the variable, data included). A lock someone else holds, even a
     * lapsed one within its delay, is a conflict.
     */
    public VariableOutcome acquire(String namespace, String path, Map<String, String> items, LockRequest request) {
        VariableLock lock = new VariableLock(request.hasId() ? request.id() : UUID.randomUUID().toString(),
                orDefault(request.ttl(), VariableRules.DEFAULT_LOCK_TTL), orDefault(request.lockDelay(), VariableRules.DEFAULT_LOCK_DELAY));
        VariableRules.checkWritableNamespace(namespace, path, namespaces.exists(namespace));
        VariableRules.checkSize(items);
        VariableRules.checkPath(path);
        VariableRules.checkLock(lock.ttl(), lock.lockDelay());
        return writer.locked(() -> {
            Key key = new Key(namespace, path);
            Optional<Row> existing = expireIfDue(key, store.get(namespace, path));
            String heldBy = existing.map(row -> row.meta().lockId()).orElse(null);
            if (heldBy != null && !heldBy.equals(lock.id())) {
                return new Conflict(Variable.zero(namespace, path));
            }
            Variable written = writer.write(namespace, path, items, lock, existing);
            Lease current = leases.get(key);
            if (current == null || !current.lockId().equals(lock.id()) || lapsed(current)) {
                leases.put(key, lease(lock));
            }
            return new Written(written, written.meta().modifyIndex());
        });
    }

    /** Releases the lock held under {@code lockId}; the variable and its items stay. */
    public VariableOutcome release(String namespace, String path, String lockId, boolean itemsGiven) {
        if (lockId == null || lockId.isEmpty()) {
            throw VariableRules.invalid("missing lock information");
        }
        if (itemsGiven) {
            throw VariableRules.invalid("lock release operation doesn't take variable items");
        }
        VariableRules.checkWritableNamespace(namespace, path, namespaces.exists(namespace));
        VariableRules.checkPath(path);
        return writer.locked(() -> {
            Key key = new Key(namespace, path);
            Row row = expireIfDue(key, store.get(namespace, path))
                    .orElseThrow(() -> new VariableException(Kind.NOT_FOUND, "variable doesn't exist"));
            if (!row.meta().locked()) {
                throw new VariableException(Kind.LOCK_CONFLICT, "variable doesn't hold a lock");
            }
            if (!row.meta().lockId().equals(lockId)) {
                return new Conflict(Variable.zero(namespace, path));
            }
            leases.remove(key);
            VariableMeta released = writer.relock(row, null);
            return new Written(new Variable(released, Map.of()), released.modifyIndex());
        });
    }

    /** Renews the lease of the lock held under {@code lockId}; the variable's metadata, lock included. */
    public VariableMeta renew(String namespace, String path, String lockId) {
        if (lockId == null || lockId.isEmpty()) {
            throw VariableRules.invalid(VariableRules.multiError(List.of("missing lock ID")));
        }
        return writer.locked(() -> {
            Key key = new Key(namespace, path);
            Row row = expireIfDue(key, store.get(namespace, path))
                    .orElseThrow(() -> new VariableException(Kind.NOT_FOUND, "variable doesn't exist"));
            if (!row.meta().locked()) {
                throw new VariableException(Kind.LOCK_CONFLICT, "variable doesn't hold a lock");
            }
            Lease lease = leases.get(key);
            // someone else's lock, or ours past its renewal time (lapsed, waiting out its delay): Nomad's one answer
            if (!row.meta().lockId().equals(lockId) || lease == null || !lease.lockId().equals(lockId) || lapsed(lease)) {
                throw new VariableException(Kind.LOCK_CONFLICT, "attempting to modify locked variable");
            }
            leases.put(key, lease(row.meta().lock()));
            return row.meta();
        });
    }

    /** Removes every lock whose lease lapsed and whose delay has passed. */
    public void expireDue() {
        Instant now = clock.instant();
        leases.forEach((key, lease) -> {
            if (!now.isBefore(lease.removeAt())) {
                writer.locked(() -> expireIfDue(key, store.get(key.namespace(), key.path())));
            }
        });
    }

    /** The variable as it is once a lapsed lock past its delay is gone from it (a write when it was still there). */
    private Optional<Row> expireIfDue(Key key, Optional<Row> row) {
        Lease lease = leases.get(key);
        if (lease == null || clock.instant().isBefore(lease.removeAt())) {
            return row;
        }
        leases.remove(key);
        if (row.isEmpty() || !lease.lockId().equals(row.get().meta().lockId())) {
            return row; // released, or taken again since: that lock is not this lease's
        }
        log.info("Variable lock lapsed and its delay passed: removed from {}/{}", key.namespace(), key.path());
        VariableMeta released = writer.relock(row.get(), null);
        return Optional.of(new Row(released, row.get().items()));
    }

    private Lease lease(VariableLock lock) {
        return new Lease(lock.id(), clock.instant().plus(lock.ttl().multipliedBy(2)), lock.lockDelay());
    }

    private boolean lapsed(Lease lease) {
        return !clock.instant().isBefore(lease.renewBy());
    }

    private static Duration orDefault(Duration value, Duration fallback) {
        return value == null || value.isZero() ? fallback : value;
    }

    /** Leases for the locks found in the store (each a fresh one, as Nomad's new leader gives), then the sweeper. */
    @Override
    public void start() {
        writer.locked(() -> {
            store.locked().forEach(meta -> leases.put(new Key(meta.namespace(), meta.path()), lease(meta.lock())));
            return null;
        });
        ScheduledExecutorService s = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon()
                .name("berth-variable-locks").factory());
        // fixed delay, and every failure caught: a periodic task that throws is never run again
        s.scheduleWithFixedDelay(this::sweepSafely, SWEEP_EVERY.toMillis(), SWEEP_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        sweeper = s;
    }

    private void sweepSafely() {
        try {
            expireDue();
        } catch (RuntimeException e) {
            log.warn("Removing lapsed variable locks failed; trying again in {}", SWEEP_EVERY, e);
        }
    }

    @Override
    public void stop() {
        ScheduledExecutorService s = sweeper;
        sweeper = null;
        if (s != null) {
            s.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return sweeper != null;
    }

    /** Before the web server takes requests: a holder renewing right after a restart finds its lease. */
    @Override
    public int getPhase() {
        return 0;
    }
}
