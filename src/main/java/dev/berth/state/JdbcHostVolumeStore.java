package dev.berth.state;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.volume.DynamicHostVolume;
import dev.berth.volume.HostVolumeStore;

/** The dynamic host volumes in H2 ({@code host_volume}): one row per volume, its lists and parameters as JSON text. */
@Component
class JdbcHostVolumeStore implements HostVolumeStore {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<List<DynamicHostVolume.Constraint>> CONSTRAINTS = new TypeReference<>() { };
    private static final TypeReference<List<DynamicHostVolume.Capability>> CAPABILITIES = new TypeReference<>() { };
    private static final TypeReference<Map<String, String>> PARAMETERS = new TypeReference<>() { };
    private static final String COLUMNS = "id, namespace, name, plugin_id, node_pool, node_id, capacity_min_bytes, "
            + "capacity_max_bytes, capacity_bytes, host_path, state, constraints, capabilities, parameters, create_index, "
            + "create_time, modify_index, modify_time";

    private final JdbcClient jdbc;
    private final StateTransactions tx;

    JdbcHostVolumeStore(JdbcClient jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.tx = new StateTransactions(transactionManager);
    }

    @Override
    public List<DynamicHostVolume> all() {
        return tx.read(() -> jdbc.sql("SELECT " + COLUMNS + " FROM host_volume ORDER BY id").query((rs, n) -> volume(rs)).list());
    }

    @Override
    public void put(DynamicHostVolume v) {
        tx.write(() -> {
            jdbc.sql("MERGE INTO host_volume (" + COLUMNS + ") KEY (id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
                .params(v.id(), v.namespace(), v.name(), v.pluginId(), v.nodePool(), v.nodeId(), v.requestedCapacityMinBytes(),
                        v.requestedCapacityMaxBytes(), v.capacityBytes(), v.hostPath(), v.state(),
                        JSON.writeValueAsString(v.constraints()), JSON.writeValueAsString(v.requestedCapabilities()),
                        JSON.writeValueAsString(v.parameters()), v.createIndex(), v.createTime(), v.modifyIndex(), v.modifyTime())
                    .update();
        });
    }

    @Override
    public void delete(String id) {
        tx.write(() -> {
            jdbc.sql("DELETE FROM host_volume WHERE id = ?").param(id).update();
        });
    }

    private static DynamicHostVolume volume(ResultSet rs) throws SQLException {
        return new DynamicHostVolume(rs.getString("namespace"), rs.getString("id"), rs.getString("name"),
                rs.getString("plugin_id"), rs.getString("node_pool"), rs.getString("node_id"),
                JSON.readValue(rs.getString("constraints"), CONSTRAINTS), rs.getLong("capacity_min_bytes"),
                rs.getLong("capacity_max_bytes"), rs.getLong("capacity_bytes"),
                JSON.readValue(rs.getString("capabilities"), CAPABILITIES), JSON.readValue(rs.getString("parameters"), PARAMETERS),
                rs.getString("host_path"), rs.getString("state"), rs.getLong("create_index"), rs.getLong("create_time"),
                rs.getLong("modify_index"), rs.getLong("modify_time"));
    }
}
