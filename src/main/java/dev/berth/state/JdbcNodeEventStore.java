package dev.berth.state;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import dev.berth.fingerprint.NodeEvent;
import dev.berth.fingerprint.NodeEventStore;

/** Node events in the {@code node_event} table; only the newest {@code keep} rows survive an append. */
@Component
class JdbcNodeEventStore implements NodeEventStore {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<Map<String, String>> DETAILS = new TypeReference<>() { };
    private static final int MAX_TEXT = 4000;

    private final JdbcClient jdbc;
    private final StateTransactions tx;

    JdbcNodeEventStore(JdbcClient jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.tx = new StateTransactions(transactionManager);
    }

    @Override
    public List<NodeEvent> recent(int max) {
        return tx.read(() -> {
            List<NodeEvent> newestFirst = jdbc.sql("""
                    SELECT subsystem, message, details, occurred_at FROM node_event ORDER BY id DESC FETCH FIRST ? ROWS ONLY""")
                    .param(max)
                    .query((rs, n) -> new NodeEvent(rs.getString("message"), rs.getString("subsystem"),
                            JSON.readValue(rs.getString("details"), DETAILS), rs.getObject("occurred_at", OffsetDateTime.class).toInstant()))
                    .list();
            return newestFirst.reversed();
        });
    }

    @Override
    public void append(NodeEvent event, int keep) {
        tx.write(() -> {
            String details = JSON.writeValueAsString(event.details());
            if (details.length() > MAX_TEXT) {
                details = "{}";
            }
            jdbc.sql("INSERT INTO node_event (subsystem, message, details, occurred_at) VALUES (?, ?, ?, ?)")
                    .params(truncate(event.subsystem(), 64), truncate(event.message(), MAX_TEXT), details,
                            OffsetDateTime.ofInstant(event.timestamp(), ZoneOffset.UTC))
                    .update();
            List<Long> kept = jdbc.sql("SELECT id FROM node_event ORDER BY id DESC FETCH FIRST ? ROWS ONLY").param(keep)
                    .query(Long.class).list();
            if (kept.size() == keep) {
                jdbc.sql("DELETE FROM node_event WHERE id < ?").param(kept.getLast()).update();
            }
        });
    }

    private static String truncate(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max);
    }
}
