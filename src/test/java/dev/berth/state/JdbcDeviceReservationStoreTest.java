package dev.berth.state;

import java.util.List;

import dev.berth.device.DeviceGroupKey;
import dev.berth.device.DeviceReservationStore.Held;
import dev.berth.device.TaskRef;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.test.autoconfigure.JdbcTest;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@JdbcTest
@Import({ JdbcDeviceReservationStore.class, JdbcDeviceReservationStoreTest.Clocks.class })
class JdbcDeviceReservationStoreTest {

    static class Clocks {

        @org.springframework.context.annotation.Bean
        java.time.Clock clock() {
            return java.time.Clock.systemUTC();
        }
    }

    private static final DeviceGroupKey T4 = new DeviceGroupKey("nvidia", "gpu", "Tesla T4");

    @Autowired
    JdbcDeviceReservationStore store;

    @Test
    void savesLoadsAndDeletesByAlloc() {
        store.saveAll(List.of(new Held(new TaskRef("a1", "job", "web"), T4, "GPU-1"), new Held(new TaskRef("a1", "job", "web"), T4, "GPU-2")));
        store.saveAll(List.of(new Held(new TaskRef("a2", "other", "train"), T4, "GPU-3")));

        assertThat(store.loadAll()).containsExactlyInAnyOrder(new Held(new TaskRef("a1", "job", "web"), T4, "GPU-1"),
                new Held(new TaskRef("a1", "job", "web"), T4, "GPU-2"), new Held(new TaskRef("a2", "other", "train"), T4, "GPU-3"));

        store.deleteAlloc("a1");
        assertThat(store.loadAll()).containsExactly(new Held(new TaskRef("a2", "other", "train"), T4, "GPU-3"));
    }

    @Test
    void anInstanceCanBeHeldOnlyOnce() {
        store.saveAll(List.of(new Held(new TaskRef("a1", "job", "web"), T4, "GPU-1")));
        assertThatThrownBy(() -> store.saveAll(List.of(new Held(new TaskRef("a2", "job", "web"), T4, "GPU-9"),
                new Held(new TaskRef("a2", "job", "web"), T4, "GPU-1"))))
                .hasMessageContaining("GPU-1");
    }

    /** Outside a test transaction: the failed list leaves nothing behind (its own transaction is rolled back). */
    @Test
    @Transactional(propagation = Propagation.NOT_SUPPORTED)
    void aFailedListIsRolledBackWhole() {
        try {
            store.saveAll(List.of(new Held(new TaskRef("r1", "job", "web"), T4, "GPU-R1")));
            assertThatThrownBy(() -> store.saveAll(List.of(new Held(new TaskRef("r2", "job", "web"), T4, "GPU-R9"),
                    new Held(new TaskRef("r2", "job", "web"), T4, "GPU-R1"))))
                    .hasMessageContaining("GPU-R1");
            assertThat(store.loadAll()).containsExactly(new Held(new TaskRef("r1", "job", "web"), T4, "GPU-R1"));
        } finally {
            store.deleteAlloc("r1");
            store.deleteAlloc("r2");
        }
    }
}
