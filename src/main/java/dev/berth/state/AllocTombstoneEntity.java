package dev.berth.state;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "alloc_tombstone")
class AllocTombstoneEntity {

    @Id
    private String id;

    @Column(name = "deleted_at", nullable = false)
    private Instant deletedAt;

    protected AllocTombstoneEntity() {
    }

    AllocTombstoneEntity(String id, Instant deletedAt) {
        this.id = id;
        this.deletedAt = deletedAt;
    }
}
