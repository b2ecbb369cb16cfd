package dev.berth.state;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import tools.jackson.databind.json.JsonMapper;

import dev.berth.alloc.store.AllocDocument;
import dev.berth.alloc.store.AllocRecord;
import dev.berth.alloc.store.AllocStateStore;
import dev.berth.alloc.task.TaskLocalState;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.task.TaskState;

/**
 * {@link AllocStateStore} on H2 through Spring JDBC. Specs, task states and local states are JSON columns (CLOBs read as
 * strings). Writes for one alloc are serialized by a striped lock held around the whole transaction (tombstone check +
 * write + commit), so a late write can never interleave with {@link #deleteAlloc} and resurrect a destroyed allocation.
 * A write that loses a conflict inside H2 runs again, still under the lock ({@link StateTransactions}).
 */
@Component
class JdbcAllocStateStore implements AllocStateStore {

    private static final int STRIPES = 64;
    private static final int MAX_DESCRIPTION = 255;

    private final JdbcClient jdbc;
    private final StateTransactions tx;
    private final Clock clock;
    private final JsonMapper json = JsonMapper.builder().build();
    private final ReentrantLock[] locks = new ReentrantLock[STRIPES];
    private final RowMapper<AllocRecord> toRecord = (rs, n) -> new AllocRecord(
            json.readValue(rs.getString("spec_json"), AllocationSpec.class), rs.getString("client_status"),
            rs.getString("client_description"));

    @Autowired
    JdbcAllocStateStore(JdbcClient jdbc, PlatformTransactionManager transactionManager, Clock clock) {
        this(jdbc, new StateTransactions(transactionManager), clock);
    }

    JdbcAllocStateStore(JdbcClient jdbc, StateTransactions tx, Clock clock) {
        this.jdbc = jdbc;
        this.tx = tx;
        this.clock = clock;
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new ReentrantLock();
        }
    }

    private <T> T locked(String allocId, Supplier<T> work) {
        ReentrantLock lock = locks[Math.floorMod(allocId.hashCode(), STRIPES)];
        lock.lock();
        try {
            return tx.write(work);
        } finally {
            lock.unlock();
        }
    }

    private OffsetDateTime now() {
        return OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
    }

    private boolean exists(String table, String id) {
        return jdbc.sql("SELECT COUNT(*) FROM " + table + " WHERE id = ?").param(id).query(Long.class).single() > 0;
    }

    @Override
    public boolean putAlloc(AllocRecord alloc) {
        AllocationSpec spec = alloc.spec();
        String specJson = json.writeValueAsString(spec);
        String desired = spec.desiredStatus() == null ? "run" : spec.desiredStatus();
        String description = alloc.clientDescription().length() > MAX_DESCRIPTION
                ? alloc.clientDescription().substring(0, MAX_DESCRIPTION) : alloc.clientDescription();
        return locked(alloc.id(), () -> {
            if (exists("alloc_tombstone", alloc.id())) {
                return false;
            }
            // doc_json is left as it is: it has its own write (putDocument)
            int updated = jdbc.sql("""
                    UPDATE alloc SET spec_json = :spec, modify_index = :index, desired_status = :desired,
                        client_status = :status, client_description = :description, updated_at = :now WHERE id = :id""")
                    .param("spec", specJson).param("index", spec.modifyIndex()).param("desired", desired)
                    .param("status", alloc.clientStatus()).param("description", description).param("now", now())
                    .param("id", alloc.id()).update();
            if (updated == 0) {
                jdbc.sql("""
                        INSERT INTO alloc (id, spec_json, modify_index, desired_status, client_status, client_description, updated_at)
                        VALUES (:id, :spec, :index, :desired, :status, :description, :now)""")
                        .param("spec", specJson).param("index", spec.modifyIndex()).param("desired", desired)
                        .param("status", alloc.clientStatus()).param("description", description).param("now", now())
                        .param("id", alloc.id()).update();
            }
            return true;
        });
    }

    @Override
    public Optional<AllocRecord> alloc(String allocId) {
        return tx.write(() -> jdbc.sql("SELECT spec_json, client_status, client_description FROM alloc WHERE id = ?")
                .param(allocId).query(toRecord).optional());
    }

    @Override
    public List<AllocRecord> allocs() {
        return tx.write(() -> jdbc.sql("SELECT spec_json, client_status, client_description FROM alloc")
                .query(toRecord).list());
    }

    @Override
    public boolean putTaskState(String allocId, String taskName, TaskState state) {
        return writeTask(allocId, taskName, "state_json", json.writeValueAsString(state));
    }

    @Override
    public boolean putTaskLocalState(String allocId, String taskName, TaskLocalState state) {
        return writeTask(allocId, taskName, "local_json", json.writeValueAsString(state));
    }

    /** Sets one JSON column of the task's row ({@code <allocId>/<taskName>}), creating the row if needed. */
    private boolean writeTask(String allocId, String taskName, String column, String value) {
        String id = allocId + "/" + taskName;
        return locked(allocId, () -> {
            if (!exists("alloc", allocId)) {
                return false;
            }
            int updated = jdbc.sql("UPDATE alloc_task SET " + column + " = ? WHERE id = ?").params(value, id).update();
            if (updated == 0) {
                jdbc.sql("INSERT INTO alloc_task (id, alloc_id, task_name, " + column + ") VALUES (?, ?, ?, ?)")
                        .params(id, allocId, taskName, value).update();
            }
            return true;
        });
    }

    @Override
    public Map<String, TaskState> taskStates(String allocId) {
        return tx.write(() -> {
            Map<String, TaskState> m = new TreeMap<>();
            jdbc.sql("SELECT task_name, state_json FROM alloc_task WHERE alloc_id = ? AND state_json IS NOT NULL")
                    .param(allocId)
                    .query(rs -> {
                        m.put(rs.getString(1), json.readValue(rs.getString(2), TaskState.class));
                    });
            return Map.copyOf(m);
        });
    }

    @Override
    public Optional<TaskLocalState> taskLocalState(String allocId, String taskName) {
        return tx.write(() -> jdbc.sql("SELECT local_json FROM alloc_task WHERE id = ? AND local_json IS NOT NULL")
                .param(allocId + "/" + taskName)
                .query((rs, n) -> json.readValue(rs.getString(1), TaskLocalState.class)).optional());
    }

    /** One query over all task rows (reconciliation at start-up with hundreds of tasks). */
    @Override
    public Map<String, TaskLocalState> allTaskLocalStates() {
        return tx.write(() -> {
            Map<String, TaskLocalState> m = new HashMap<>();
            // task rows exist only for stored allocs: deleteAlloc removes them in the same transaction
            jdbc.sql("SELECT alloc_id, task_name, local_json FROM alloc_task WHERE local_json IS NOT NULL")
                    .query(rs -> {
                        m.put(rs.getString(1) + "/" + rs.getString(2), json.readValue(rs.getString(3), TaskLocalState.class));
                    });
            return m;
        });
    }

    @Override
    public boolean putDocument(String allocId, AllocDocument document) {
        String value = json.writeValueAsString(document);
        return locked(allocId, () -> {
            if (exists("alloc_tombstone", allocId)) {
                return false;
            }
            return jdbc.sql("UPDATE alloc SET doc_json = ? WHERE id = ?").params(value, allocId).update() > 0;
        });
    }

    @Override
    public Map<String, AllocDocument> documents() {
        return tx.write(() -> {
            Map<String, AllocDocument> m = new HashMap<>();
            jdbc.sql("SELECT id, doc_json FROM alloc WHERE doc_json IS NOT NULL")
                    .query(rs -> {
                        m.put(rs.getString(1), json.readValue(rs.getString(2), AllocDocument.class));
                    });
            return m;
        });
    }

    @Override
    public void deleteAlloc(String allocId) {
        locked(allocId, () -> {
            if (!exists("alloc_tombstone", allocId)) {
                jdbc.sql("INSERT INTO alloc_tombstone (id, deleted_at) VALUES (?, ?)").params(allocId, now()).update();
            }
            jdbc.sql("DELETE FROM alloc_task WHERE alloc_id = ?").param(allocId).update();
            jdbc.sql("DELETE FROM alloc WHERE id = ?").param(allocId).update();
            jdbc.sql("DELETE FROM alloc_destroy_intent WHERE id = ?").param(allocId).update();
            return null;
        });
    }

    @Override
    public boolean markDestroying(String allocId) {
        return Boolean.TRUE.equals(locked(allocId, () -> {
            if (exists("alloc_tombstone", allocId) || !exists("alloc", allocId)) {
                return false;
            }
            if (!exists("alloc_destroy_intent", allocId)) {
                jdbc.sql("INSERT INTO alloc_destroy_intent (id, requested_at) VALUES (?, ?)").params(allocId, now()).update();
            }
            return true;
        }));
    }

    @Override
    public Set<String> destroying() {
        return tx.write(() -> Set.copyOf(jdbc.sql("SELECT id FROM alloc_destroy_intent").query(String.class).list()));
    }

    @Override
    public boolean isDeleted(String allocId) {
        return Boolean.TRUE.equals(tx.write(() -> exists("alloc_tombstone", allocId)));
    }
}
