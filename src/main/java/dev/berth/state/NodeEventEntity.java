package dev.berth.state;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "node_event")
class NodeEventEntity {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(nullable = false, length = 64)
    private String subsystem;

    @Column(nullable = false, length = 4000)
    private String message;

    /** JSON object of string values. */
    @Column(nullable = false, length = 4000)
    private String details;

    @Column(name = "occurred_at", nullable = false)
    private Instant occurredAt;

    protected NodeEventEntity() {
    }

    NodeEventEntity(String subsystem, String message, String details, Instant occurredAt) {
        this.subsystem = subsystem;
        this.message = message;
        this.details = details;
        this.occurredAt = occurredAt;
    }

    Long id() {
        return id;
    }

    String subsystem() {
        return subsystem;
    }

    String message() {
        return message;
    }

    String details() {
        return details;
    }

    Instant occurredAt() {
        return occurredAt;
    }
}
