package dev.berth.state;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.function.Supplier;

import dev.berth.config.NodeIdentityStore;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

/** The node's ID in the one-row {@code node_identity} table (slot 1), created on first start. */
@Component
class JdbcNodeIdentityStore implements NodeIdentityStore {

    private final JdbcClient jdbc;
    private final StateTransactions tx;
    private final Clock clock;

    JdbcNodeIdentityStore(JdbcClient jdbc, Clock clock, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.tx = new StateTransactions(transactionManager);
        this.clock = clock;
    }

    @Override
    public String loadOrCreateNodeId(Supplier<String> generator) {
        return tx.write(() -> {
            return jdbc.sql("SELECT node_id FROM node_identity WHERE slot = 1").query(String.class).optional().orElseGet(() -> {
                String nodeId = generator.get();
                jdbc.sql("INSERT INTO node_identity (slot, node_id, created_at) VALUES (1, ?, ?)")
                        .params(nodeId, OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC)).update();
                return nodeId;
            });
        });
    }
}
