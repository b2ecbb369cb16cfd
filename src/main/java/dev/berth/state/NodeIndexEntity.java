package dev.berth.state;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "node_index")
class NodeIndexEntity {

    /** There is exactly one row, with slot 1. */
    @Id
    private int slot;

    @Column(name = "high_water", nullable = false)
    private long highWater;

    protected NodeIndexEntity() {
    }

    NodeIndexEntity(long highWater) {
        this.slot = 1;
        this.highWater = highWater;
    }

    long highWater() {
        return highWater;
    }

    void highWater(long highWater) {
        this.highWater = highWater;
    }
}
