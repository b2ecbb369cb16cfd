package dev.berth.state;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

import dev.berth.device.DeviceGroupKey;
import dev.berth.device.DeviceReservationStore;
import dev.berth.device.TaskRef;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/** Device reservations in H2: one row per held instance, the instance ID as primary key. */
@Component
class JpaDeviceReservationStore implements DeviceReservationStore {

    private final DeviceReservationRepository repository;

    private final Clock clock;

    JpaDeviceReservationStore(DeviceReservationRepository repository, Clock clock) {
        this.repository = repository;
        this.clock = clock;
    }

    @Override
    @Transactional(readOnly = true)
    public List<Held> loadAll() {
        return repository.findAllByOrderByCreatedAtAscInstanceIdAsc().stream()
                .map((row) -> new Held(new TaskRef(row.allocId(), row.job(), row.task()),
                        new DeviceGroupKey(row.vendor(), row.deviceType(), row.deviceName()), row.instanceId()))
                .toList();
    }

    @Override
    @Transactional
    public void saveAll(List<Held> held) {
        Instant now = clock.instant();
        for (Held one : held) {
            if (repository.existsById(one.instanceId())) {
                throw new IllegalStateException("device instance \"" + one.instanceId() + "\" is already reserved");
            }
            repository.save(new DeviceReservationEntity(one.instanceId(), one.task().allocId(), one.task().job(), one.task().task(),
                    one.group().vendor(), one.group().type(), one.group().name(), now));
        }
        repository.flush();
    }

    @Override
    @Transactional
    public void deleteAlloc(String allocId) {
        repository.deleteByAllocId(allocId);
    }
}
