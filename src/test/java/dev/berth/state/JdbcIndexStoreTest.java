package dev.berth.state;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.test.autoconfigure.JdbcTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

import dev.berth.events.NodeIndex;

import static org.assertj.core.api.Assertions.assertThat;

/** The node index's high-water mark through Flyway's schema: a new NodeIndex over the same store never reuses an index. */
@JdbcTest
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@TestPropertySource(properties = "spring.datasource.url=jdbc:h2:mem:node-index;DB_CLOSE_DELAY=-1")
@Import(JdbcIndexStore.class)
class JdbcIndexStoreTest {

    @Autowired
    JdbcIndexStore store;

    @Test
    void aNewNodeStartsAtZeroAndARestartedIndexNeverGoesBack() {
        assertThat(store.highWater()).isZero();

        NodeIndex first = new NodeIndex(store);
        long a = first.next();
        long b = first.next();
        assertThat(a).isEqualTo(1);
        assertThat(b).isEqualTo(2);

        NodeIndex afterCrash = new NodeIndex(store);
        assertThat(afterCrash.current()).isGreaterThanOrEqualTo(b);
        assertThat(afterCrash.next()).isGreaterThan(b);
    }

    @Test
    void theMarkOnlyMovesUp() {
        store.reserveThrough(5000);
        store.reserveThrough(10);

        assertThat(store.highWater()).isEqualTo(5000);
    }
}
