package dev.berth.state;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import dev.berth.variables.VariableLock;
import dev.berth.variables.VariableMeta;
import dev.berth.variables.VariableStore;

/**
 * The variables' store in H2: {@code variable} (metadata in clear, items sealed by the feature before they get here)
 * and {@code variable_table_index}. A put or delete moves the table index in the same transaction.
 */
@Component
class JdbcVariableStore implements VariableStore {

    private static final String META_COLUMNS =
            "namespace, path, lock_id, lock_ttl, lock_delay, create_index, create_time, modify_index, modify_time";
    private static final RowMapper<VariableMeta> META = (rs, n) -> meta(rs);

    private final JdbcClient jdbc;
    private final StateTransactions tx;

    JdbcVariableStore(JdbcClient jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.tx = new StateTransactions(transactionManager);
    }

    @Override
    public Optional<Row> get(String namespace, String path) {
        return tx.read(() -> jdbc.sql("SELECT " + META_COLUMNS + ", key_id, data FROM variable WHERE namespace = ? AND path = ?")
                .params(namespace, path)
                .query((rs, n) -> new Row(meta(rs), new Sealed(rs.getString("key_id"), rs.getBytes("data"))))
                .optional());
    }

    @Override
    public List<VariableMeta> list(String namespace, String prefix) {
        // LIKE would read '_' in a path as a wildcard: the prefix is compared as text instead
        String like = "*".equals(namespace) ? "" : " AND namespace = :namespace";
        return tx.read(() -> jdbc.sql("SELECT " + META_COLUMNS + " FROM variable WHERE LEFT(path, :length) = :prefix" + like
                        + " ORDER BY namespace, path")
                .param("length", prefix.length()).param("prefix", prefix).param("namespace", namespace)
                .query(META).list());
    }

    @Override
    public List<VariableMeta> locked() {
        return tx.read(() -> jdbc.sql("SELECT " + META_COLUMNS + " FROM variable WHERE lock_id IS NOT NULL").query(META).list());
    }

    @Override
    public void put(Row row) {
        VariableMeta m = row.meta();
        VariableLock lock = m.lock();
        tx.write(() -> {
            jdbc.sql("MERGE INTO variable (" + META_COLUMNS + ", key_id, data) KEY (namespace, path) "
                            + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                    .params(m.namespace(), m.path(), lock == null ? null : lock.id(),
                            lock == null ? null : lock.ttl().toNanos(), lock == null ? null : lock.lockDelay().toNanos(),
                            m.createIndex(), m.createTime(), m.modifyIndex(), m.modifyTime(), row.items().keyId(),
                            row.items().data())
                    .update();
            setTableIndex(m.modifyIndex());
        });
    }

    @Override
    public void delete(String namespace, String path, long index) {
        tx.write(() -> {
            jdbc.sql("DELETE FROM variable WHERE namespace = ? AND path = ?").params(namespace, path).update();
            setTableIndex(index);
        });
    }

    @Override
    public long tableIndex() {
        return tx.read(() -> jdbc.sql("SELECT modify_index FROM variable_table_index WHERE id = 1").query(Long.class)
                .optional().orElse(0L));
    }

    private void setTableIndex(long index) {
        jdbc.sql("MERGE INTO variable_table_index (id, modify_index) KEY (id) VALUES (1, ?)").param(index).update();
    }

    private static VariableMeta meta(ResultSet rs) throws SQLException {
        String lockId = rs.getString("lock_id");
        VariableLock lock = lockId == null ? null
                : new VariableLock(lockId, Duration.ofNanos(rs.getLong("lock_ttl")), Duration.ofNanos(rs.getLong("lock_delay")));
        return new VariableMeta(rs.getString("namespace"), rs.getString("path"), lock, rs.getLong("create_index"),
                rs.getLong("create_time"), rs.getLong("modify_index"), rs.getLong("modify_time"));
    }
}
