package dev.berth.device;

import java.util.List;

/**
 * Port: persists which task holds which device instances, so reservations survive an agent restart. Implemented in
 * {@code state}. Each instance is held by at most one task; implementations enforce it.
 */
public interface DeviceReservationStore {

    /** One held instance. */
    record Held(TaskRef task, DeviceGroupKey group, String instanceId) {
    }

    /** Everything currently held. */
    List<Held> loadAll();

    /** Adds these holdings atomically (all or none). */
    void saveAll(List<Held> held);

    /** Removes everything the allocation holds. */
    void deleteAlloc(String allocId);
}
