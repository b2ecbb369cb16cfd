package dev.berth.state;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.namespace.Capabilities;
import dev.berth.namespace.Namespace;
import dev.berth.namespace.NamespaceStore;

/**
 * The namespaces' store in H2: {@code namespace} (meta and capabilities as JSON objects) and {@code namespace_table_index}. A put or
 * delete moves the table index in the same transaction.
 */
@Component
class JdbcNamespaceStore implements NamespaceStore {

    private static final TypeReference<LinkedHashMap<String, String>> META = new TypeReference<>() {
    };

    private final JdbcClient jdbc;
    private final StateTransactions tx;
    private final JsonMapper json = JsonMapper.builder().build();

    JdbcNamespaceStore(JdbcClient jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.tx = new StateTransactions(transactionManager);
    }

    @Override
    public List<Namespace> list() {
        return tx.read(() -> jdbc.sql("SELECT name, description, meta, capabilities, create_index, modify_index FROM namespace ORDER BY name")
                .query((rs, n) -> new Namespace(rs.getString("name"), rs.getString("description"), meta(rs.getString("meta")),
                        capabilities(rs.getString("capabilities")), rs.getLong("create_index"), rs.getLong("modify_index")))
                .list());
    }

    @Override
    public void put(Namespace ns) {
        tx.write(() -> {
            jdbc.sql("MERGE INTO namespace (name, description, meta, capabilities, create_index, modify_index) KEY (name) "
                            + "VALUES (?, ?, ?, ?, ?, ?)")
                    .params(ns.name(), ns.description(), ns.meta() == null ? null : json.writeValueAsString(ns.meta()),
                            ns.capabilities() == null ? null : json.writeValueAsString(ns.capabilities()), ns.createIndex(),
                            ns.modifyIndex())
                    .update();
            setTableIndex(ns.modifyIndex());
        });
    }

    @Override
    public void delete(String name, long index) {
        tx.write(() -> {
            jdbc.sql("DELETE FROM namespace WHERE name = ?").param(name).update();
            setTableIndex(index);
        });
    }

    @Override
    public long tableIndex() {
        return tx.read(() -> jdbc.sql("SELECT modify_index FROM namespace_table_index WHERE id = 1").query(Long.class)
                .optional().orElse(1L));
    }

    private void setTableIndex(long index) {
        jdbc.sql("MERGE INTO namespace_table_index (id, modify_index) KEY (id) VALUES (1, ?)").param(index).update();
    }

    private Capabilities capabilities(String raw) {
        return raw == null ? null : json.readValue(raw, Capabilities.class);
    }

    private Map<String, String> meta(String raw) {
        return raw == null ? null : json.readValue(raw, META);
    }
}
