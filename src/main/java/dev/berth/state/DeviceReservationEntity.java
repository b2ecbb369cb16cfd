package dev.berth.state;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One device instance held by one task. */
@Entity
@Table(name = "device_reservation")
class DeviceReservationEntity {

    @Id
    @Column(name = "instance_id", nullable = false)
    private String instanceId;

    @Column(name = "alloc_id", nullable = false, length = 64)
    private String allocId;

    @Column(name = "job", nullable = false)
    private String job;

    @Column(name = "task", nullable = false)
    private String task;

    @Column(name = "vendor", nullable = false)
    private String vendor;

    @Column(name = "device_type", nullable = false)
    private String deviceType;

    @Column(name = "device_name", nullable = false)
    private String deviceName;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected DeviceReservationEntity() {
    }

    DeviceReservationEntity(String instanceId, String allocId, String job, String task, String vendor, String deviceType,
            String deviceName, Instant createdAt) {
        this.instanceId = instanceId;
        this.allocId = allocId;
        this.job = job;
        this.task = task;
        this.vendor = vendor;
        this.deviceType = deviceType;
        this.deviceName = deviceName;
        this.createdAt = createdAt;
    }

    String instanceId() {
        return instanceId;
    }

    String allocId() {
        return allocId;
    }

    String job() {
        return job;
    }

    String task() {
        return task;
    }

    String vendor() {
        return vendor;
    }

    String deviceType() {
        return deviceType;
    }

    String deviceName() {
        return deviceName;
    }
}
