package dev.berth.state;

import java.time.OffsetDateTime;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;

import dev.berth.device.DeviceGroupKey;
import dev.berth.device.DeviceReservationStore;
import dev.berth.device.TaskRef;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

/** Device reservations in H2: one row per held instance, the instance ID as primary key. */
@Component
class JdbcDeviceReservationStore implements DeviceReservationStore {

    private final JdbcClient jdbc;
    private final StateTransactions tx;

    private final Clock clock;

    JdbcDeviceReservationStore(JdbcClient jdbc, Clock clock, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.tx = new StateTransactions(transactionManager);
        this.clock = clock;
    }

    @Override
    public List<Held> loadAll() {
        return tx.read(() -> jdbc.sql("""
                SELECT instance_id, alloc_id, job, task, vendor, device_type, device_name FROM device_reservation
                ORDER BY created_at, instance_id""")
                .query((rs, n) -> new Held(new TaskRef(rs.getString("alloc_id"), rs.getString("job"), rs.getString("task")),
                        new DeviceGroupKey(rs.getString("vendor"), rs.getString("device_type"), rs.getString("device_name")),
                        rs.getString("instance_id")))
                .list());
    }

    /** All or nothing: an instance already held rolls back the whole list (and the primary key stops a concurrent holder). */
    @Override
    public void saveAll(List<Held> held) {
        tx.write(() -> {
            OffsetDateTime now = OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
            for (Held one : held) {
                boolean taken = jdbc.sql("SELECT COUNT(*) FROM device_reservation WHERE instance_id = ?").param(one.instanceId())
                        .query(Long.class).single() > 0;
                if (taken) {
                    throw new IllegalStateException("device instance \"" + one.instanceId() + "\" is already reserved");
                }
                jdbc.sql("""
                        INSERT INTO device_reservation (instance_id, alloc_id, job, task, vendor, device_type, device_name, created_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)""")
                        .params(one.instanceId(), one.task().allocId(), one.task().job(), one.task().task(), one.group().vendor(),
                                one.group().type(), one.group().name(), now)
                        .update();
            }
        });
    }

    @Override
    public void deleteAlloc(String allocId) {
        tx.write(() -> jdbc.sql("DELETE FROM device_reservation WHERE alloc_id = ?").param(allocId).update());
    }
}
