package dev.berth.state;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** The last launch of one periodic job. */
@Entity
@Table(name = "job_periodic_launch")
class JobPeriodicLaunchEntity {
    @Id
    private String id;
    @Column(nullable = false)
    private String namespace;
    @Column(name = "job_id", nullable = false)
    private String jobId;
    @Column(name = "launch_millis", nullable = false)
    private long launchMillis;

    protected JobPeriodicLaunchEntity() {
    }

    JobPeriodicLaunchEntity(String namespace, String jobId, long launchMillis) {
        this.id = namespace + "\u0000" + jobId;
        this.namespace = namespace;
        this.jobId = jobId;
        this.launchMillis = launchMillis;
    }

    String namespace() {
        return namespace;
    }

    String jobId() {
        return jobId;
    }

    long launchMillis() {
        return launchMillis;
    }
}
