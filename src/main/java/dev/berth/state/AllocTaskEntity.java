package dev.berth.state;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Lob;
import jakarta.persistence.Table;

@Entity
@Table(name = "alloc_task")
class AllocTaskEntity {

    /** {@code <allocId>/<taskName>}. */
    @Id
    private String id;

    @Column(name = "alloc_id", nullable = false)
    private String allocId;

    @Column(name = "task_name", nullable = false)
    private String taskName;

    @Lob
    @Column(name = "state_json")
    private String stateJson;

    @Lob
    @Column(name = "local_json")
    private String localJson;

    protected AllocTaskEntity() {
    }

    AllocTaskEntity(String allocId, String taskName) {
        this.id = allocId + "/" + taskName;
        this.allocId = allocId;
        this.taskName = taskName;
    }

    String allocId() {
        return allocId;
    }

    String taskName() {
        return taskName;
    }

    String stateJson() {
        return stateJson;
    }

    String localJson() {
        return localJson;
    }

    void stateJson(String json) {
        this.stateJson = json;
    }

    void localJson(String json) {
        this.localJson = json;
    }
}
