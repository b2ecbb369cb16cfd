package dev.berth.state;

import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.test.autoconfigure.JdbcTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

import dev.berth.fingerprint.NodeEvent;

import static org.assertj.core.api.Assertions.assertThat;

/** The node-event table through Flyway's schema (the Flyway migrations, as the agent runs them). */
@JdbcTest
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@TestPropertySource(properties = "spring.datasource.url=jdbc:h2:mem:node-events;DB_CLOSE_DELAY=-1")
@Import(JdbcNodeEventStore.class)
class JdbcNodeEventStoreTest {

    private static final Instant T0 = Instant.parse("2026-11-22T00:00:00.123456789Z");

    @Autowired
    JdbcNodeEventStore store;

    @Test
    void keepsTheNewestEventsInOrderWithTheirDetails() {
        for (int i = 0; i < 5; i++) {
            store.append(new NodeEvent("event " + i, "Driver", Map.of("driver", "d" + i), T0.plusSeconds(i)), 3);
        }

        assertThat(store.recent(10)).containsExactly(
                new NodeEvent("event 2", "Driver", Map.of("driver", "d2"), T0.plusSeconds(2)),
                new NodeEvent("event 3", "Driver", Map.of("driver", "d3"), T0.plusSeconds(3)),
                new NodeEvent("event 4", "Driver", Map.of("driver", "d4"), T0.plusSeconds(4)));
        assertThat(store.recent(2)).extracting(NodeEvent::message).containsExactly("event 3", "event 4");
    }

    @Test
    void overlongMessagesAreTruncatedNotRejected() {
        store.append(new NodeEvent("x".repeat(5000), "Fingerprint", Map.of(), T0), 10);

        assertThat(store.recent(1).getFirst().message()).hasSize(4000);
    }
}
