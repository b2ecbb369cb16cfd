package dev.berth.state;

import java.time.Clock;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.test.autoconfigure.JdbcTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.berth.alloc.store.AllocStateStore;
import dev.berth.alloc.store.AllocStateStoreContract;

/** The store contract against H2 through Spring JDBC and the Flyway schema (no test transaction: the store runs its own). */
@JdbcTest
@Transactional(propagation = Propagation.NOT_SUPPORTED)
@Import({JdbcAllocStateStore.class, JdbcAllocStateStoreTest.ClockConfig.class})
class JdbcAllocStateStoreTest extends AllocStateStoreContract {

    @Autowired
    JdbcAllocStateStore store;

    @Override
    protected AllocStateStore store() {
        return store;
    }

    @TestConfiguration
    static class ClockConfig {
        @Bean
        Clock clock() {
            return Clock.systemUTC();
        }
    }
}
