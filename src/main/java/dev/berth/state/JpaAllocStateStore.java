package dev.berth.state;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import tools.jackson.databind.json.JsonMapper;

import dev.berth.alloc.store.AllocDocument;
import dev.berth.alloc.store.AllocRecord;
import dev.berth.alloc.store.AllocStateStore;
import dev.berth.alloc.task.TaskLocalState;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.task.TaskState;

/**
 * {@link AllocStateStore} on H2 through JPA. Specs, task states and local states are JSON columns. Writes for one alloc are
 * serialized by a striped lock held around the whole transaction (tombstone check + write + commit), so a late write can
 * never interleave with {@link #deleteAlloc} and resurrect a destroyed allocation.
 */
@Component
class JpaAllocStateStore implements AllocStateStore {

    private static final int STRIPES = 64;

    private final AllocRepository allocs;
    private final AllocTaskRepository tasks;
    private final AllocTombstoneRepository tombstones;
    private final AllocDestroyIntentRepository destroyIntents;
    private final TransactionTemplate tx;
    private final Clock clock;
    private final JsonMapper json = JsonMapper.builder().build();
    private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

    JpaAllocStateStore(AllocRepository allocs, AllocTaskRepository tasks, AllocTombstoneRepository tombstones,
                       AllocDestroyIntentRepository destroyIntents, PlatformTransactionManager transactionManager, Clock clock) {
        this.allocs = allocs;
        this.tasks = tasks;
        this.tombstones = tombstones;
        this.destroyIntents = destroyIntents;
        this.tx = new TransactionTemplate(transactionManager);
        this.clock = clock;
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new ReentrantLock();
        }
    }

    private <T> T locked(String allocId, Supplier<T> work) {
        ReentrantLock lock = locks[Math.floorMod(allocId.hashCode(), STRIPES)];
        lock.lock();
        try {
            return tx.execute(status -> work.get());
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean putAlloc(AllocRecord alloc) {
        return locked(alloc.id(), () -> {
            if (tombstones.existsById(alloc.id())) {
                return false;
            }
            AllocEntity e = allocs.findById(alloc.id()).orElseGet(() -> new AllocEntity(alloc.id()));
            AllocationSpec spec = alloc.spec();
            e.set(json.writeValueAsString(spec), spec.modifyIndex(), spec.desiredStatus() == null ? "run" : spec.desiredStatus(),
                    alloc.clientStatus(), alloc.clientDescription(), clock.instant());
            allocs.save(e);
            return true;
        });
    }

    @Override
    public Optional<AllocRecord> alloc(String allocId) {
        return tx.execute(status -> allocs.findById(allocId).map(this::toRecord));
    }

    @Override
    public List<AllocRecord> allocs() {
        return tx.execute(status -> allocs.findAll().stream().map(this::toRecord).toList());
    }

    private AllocRecord toRecord(AllocEntity e) {
        return new AllocRecord(json.readValue(e.specJson(), AllocationSpec.class), e.clientStatus(), e.clientDescription());
    }

    @Override
    public boolean putTaskState(String allocId, String taskName, TaskState state) {
        String value = json.writeValueAsString(state);
        return writeTask(allocId, taskName, e -> e.stateJson(value));
    }

    @Override
    public boolean putTaskLocalState(String allocId, String taskName, TaskLocalState state) {
        String value = json.writeValueAsString(state);
        return writeTask(allocId, taskName, e -> e.localJson(value));
    }

    private boolean writeTask(String allocId, String taskName, java.util.function.Consumer<AllocTaskEntity> change) {
        return locked(allocId, () -> {
            if (!allocs.existsById(allocId)) {
                return false;
            }
            AllocTaskEntity e = tasks.findById(allocId + "/" + taskName).orElseGet(() -> new AllocTaskEntity(allocId, taskName));
            change.accept(e);
            tasks.save(e);
            return true;
        });
    }

    @Override
    public Map<String, TaskState> taskStates(String allocId) {
        return tx.execute(status -> {
            Map<String, TaskState> m = new TreeMap<>();
            for (AllocTaskEntity e : tasks.findByAllocId(allocId)) {
                if (e.stateJson() != null) {
                    m.put(e.taskName(), json.readValue(e.stateJson(), TaskState.class));
                }
            }
            return Map.copyOf(m);
        });
    }

    @Override
    public Optional<TaskLocalState> taskLocalState(String allocId, String taskName) {
        return tx.execute(status -> tasks.findById(allocId + "/" + taskName)
                .filter(e -> e.localJson() != null)
                .map(e -> json.readValue(e.localJson(), TaskLocalState.class)));
    }

    /** One query over all task rows (reconciliation at start-up with hundreds of tasks). */
    @Override
    public Map<String, TaskLocalState> allTaskLocalStates() {
        return tx.execute(status -> {
            Map<String, TaskLocalState> m = new java.util.HashMap<>();
            for (AllocTaskEntity e : tasks.findAll()) {
                // task rows exist only for stored allocs: deleteAlloc removes them in the same transaction
                if (e.localJson() != null) {
                    m.put(e.allocId() + "/" + e.taskName(), json.readValue(e.localJson(), TaskLocalState.class));
                }
            }
            return m;
        });
    }

    @Override
    public boolean putDocument(String allocId, AllocDocument document) {
        String value = json.writeValueAsString(document);
        return locked(allocId, () -> {
            if (tombstones.existsById(allocId)) {
                return false;
            }
            return allocs.findById(allocId).map(e -> {
                e.docJson(value);
                allocs.save(e);
                return true;
            }).orElse(false);
        });
    }

    @Override
    public Map<String, AllocDocument> documents() {
        return tx.execute(status -> {
            Map<String, AllocDocument> m = new java.util.HashMap<>();
            for (AllocEntity e : allocs.findAll()) {
                if (e.docJson() != null) {
                    m.put(e.id(), json.readValue(e.docJson(), AllocDocument.class));
                }
            }
            return m;
        });
    }

    @Override
    public void deleteAlloc(String allocId) {
        locked(allocId, () -> {
            if (!tombstones.existsById(allocId)) {
                tombstones.save(new AllocTombstoneEntity(allocId, clock.instant()));
            }
            tasks.deleteByAllocId(allocId);
            allocs.deleteById(allocId);
            destroyIntents.deleteById(allocId);
            return null;
        });
    }

    @Override
    public boolean markDestroying(String allocId) {
        return Boolean.TRUE.equals(locked(allocId, () -> {
            if (tombstones.existsById(allocId) || !allocs.existsById(allocId)) {
                return false;
            }
            if (!destroyIntents.existsById(allocId)) {
                destroyIntents.save(new AllocDestroyIntentEntity(allocId, clock.instant()));
            }
            return true;
        }));
    }

    @Override
    public java.util.Set<String> destroying() {
        return tx.execute(status -> destroyIntents.findAll().stream().map(AllocDestroyIntentEntity::id)
                .collect(java.util.stream.Collectors.toUnmodifiableSet()));
    }

    @Override
    public boolean isDeleted(String allocId) {
        return Boolean.TRUE.equals(tx.execute(status -> tombstones.existsById(allocId)));
    }
}
