package dev.berth.state;

import jakarta.persistence.Entity;
import jakarta.persistence.Table;

@Entity
@Table(name = "job_evaluation")
class JobEvaluationEntity extends JobDocBase {
    protected JobEvaluationEntity() {
    }

    JobEvaluationEntity(String id, String namespace, String jobId, String json) {
        super(id, namespace, jobId, json);
    }
}
