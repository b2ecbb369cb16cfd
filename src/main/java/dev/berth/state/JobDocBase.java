package dev.berth.state;

import jakarta.persistence.Column;
import jakarta.persistence.Id;
import jakarta.persistence.Lob;
import jakarta.persistence.MappedSuperclass;

/** A JSON document of the job feature keyed by its own ID, with the job it belongs to. */
@MappedSuperclass
abstract class JobDocBase {
    @Id
    private String id;
    @Column(nullable = false)
    private String namespace;
    @Column(name = "job_id", nullable = false)
    private String jobId;
    @Lob
    @Column(nullable = false)
    private String json;

    protected JobDocBase() {
    }

    JobDocBase(String id, String namespace, String jobId, String json) {
        this.id = id;
        this.namespace = namespace;
        this.jobId = jobId;
        this.json = json;
    }

    String id() {
        return id;
    }

    String namespace() {
        return namespace;
    }

    String jobId() {
        return jobId;
    }

    String json() {
        return json;
    }
}
