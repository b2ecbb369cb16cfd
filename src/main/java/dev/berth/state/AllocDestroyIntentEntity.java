package dev.berth.state;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A destroy that was asked for and is not finished yet. */
@Entity
@Table(name = "alloc_destroy_intent")
class AllocDestroyIntentEntity {

    @Id
    private String id;

    @Column(name = "requested_at", nullable = false)
    private Instant requestedAt;

    protected AllocDestroyIntentEntity() {
    }

    AllocDestroyIntentEntity(String id, Instant requestedAt) {
        this.id = id;
        this.requestedAt = requestedAt;
    }

    String id() {
        return id;
    }
}
