package dev.berth.state;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "node_identity")
class NodeIdentityEntity {

    /** There is exactly one row, with slot 1. */
    @Id
    private int slot;

    @Column(name = "node_id", nullable = false, length = 36)
    private String nodeId;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected NodeIdentityEntity() {
    }

    NodeIdentityEntity(String nodeId, Instant createdAt) {
        this.slot = 1;
        this.nodeId = nodeId;
        this.createdAt = createdAt;
    }

    String nodeId() {
        return nodeId;
    }
}
