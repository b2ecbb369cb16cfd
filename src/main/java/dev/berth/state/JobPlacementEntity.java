package dev.berth.state;

import jakarta.persistence.Entity;
import jakarta.persistence.Table;

@Entity
@Table(name = "job_placement")
class JobPlacementEntity extends JobDocBase {
    protected JobPlacementEntity() {
    }

    JobPlacementEntity(String id, String namespace, String jobId, String json) {
        super(id, namespace, jobId, json);
    }
}
