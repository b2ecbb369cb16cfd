package dev.berth.state;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import dev.berth.events.IndexStore;

/** The node index's high-water mark in the one-row {@code node_index} table. */
@Component
class JdbcIndexStore implements IndexStore {

    private final JdbcClient jdbc;
    private final StateTransactions tx;

    JdbcIndexStore(JdbcClient jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.tx = new StateTransactions(transactionManager);
    }

    @Override
    public long highWater() {
        return tx.read(() -> jdbc.sql("SELECT high_water FROM node_index WHERE slot = 1").query(Long.class).optional().orElse(0L));
    }

    /** Moves the mark up only: a conditional update, so a lower value never overwrites a higher one. */
    @Override
    public void reserveThrough(long highWater) {
        tx.write(() -> {
            if (highWater <= 0) {
                return;
            }
            int updated = jdbc.sql("UPDATE node_index SET high_water = :mark WHERE slot = 1 AND high_water < :mark")
                    .param("mark", highWater).update();
            if (updated == 0 && jdbc.sql("SELECT COUNT(*) FROM node_index WHERE slot = 1").query(Long.class).single() == 0) {
                jdbc.sql("INSERT INTO node_index (slot, high_water) VALUES (1, ?)").param(highWater).update();
            }
        });
    }
}
