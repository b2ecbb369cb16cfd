package dev.berth.device;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Stands for the H2 store (tested separately in {@code JdbcDeviceReservationStoreTest}); keeps its unique-key rule. */
final class InMemoryReservationStore implements DeviceReservationStore {

    final List<Held> rows = new CopyOnWriteArrayList<>();

    volatile boolean failWrites;

    @Override
    public List<Held> loadAll() {
        return new ArrayList<>(rows);
    }

    @Override
    public synchronized void saveAll(List<Held> held) {
        if (failWrites) {
            throw new IllegalStateException("disk full");
        }
        for (Held one : held) {
            if (rows.stream().anyMatch((row) -> row.instanceId().equals(one.instanceId()))) {
                throw new IllegalStateException("duplicate " + one.instanceId());
            }
        }
        rows.addAll(held);
    }

    @Override
    public void deleteAlloc(String allocId) {
        rows.removeIf((row) -> row.task().allocId().equals(allocId));
    }
}
