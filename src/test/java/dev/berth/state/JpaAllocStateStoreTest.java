package dev.berth.state;

import java.time.Clock;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.berth.alloc.store.AllocStateStore;
import dev.berth.alloc.store.AllocStateStoreContract;

/** The store contract against H2 through JPA and the Flyway schema (no test transaction: the store runs its own). */
@DataJpaTest
@Transactional(propagation = Propagation.NOT_SUPPORTED)
@Import({JpaAllocStateStore.class, JpaAllocStateStoreTest.ClockConfig.class})
class JpaAllocStateStoreTest extends AllocStateStoreContract {

    @Autowired
    JpaAllocStateStore store;

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
