package dev.berth.state;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Lob;
import jakarta.persistence.Table;

/** One registered version of a job (Nomad's job JSON). */
@Entity
@Table(name = "job_version")
class JobVersionEntity {
    @Id
    private String id;
    @Column(nullable = false)
    private String namespace;
    @Column(name = "job_id", nullable = false)
    private String jobId;
    @Column(nullable = false)
    private long version;
    @Lob
    @Column(nullable = false)
    private String json;

    protected JobVersionEntity() {
    }

    JobVersionEntity(String namespace, String jobId, long version, String json) {
        this.id = namespace + "/" + jobId + "/" + version;
        this.namespace = namespace;
        this.jobId = jobId;
        this.version = version;
        this.json = json;
    }

    String namespace() {
        return namespace;
    }

    String jobId() {
        return jobId;
    }

    long version() {
        return version;
    }

    String json() {
        return json;
    }
}
