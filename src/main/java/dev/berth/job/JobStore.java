package dev.berth.job;

import java.util.List;

/**
 * Where jobs, their versions, evaluations and the scheduler's placements persist (implemented in {@code state}). Values
 * are JSON documents in Nomad's shapes; writes are transactional one by one.
 */
public interface JobStore {

    /** One version of a job as registered (Nomad's job JSON, indexes and {@code Version} included). */
    record JobDocument(String namespace, String jobId, long version, String json) {
    }

    /** A document keyed by its own ID (an evaluation or a placement), with the job it belongs to. */
    record Document(String id, String namespace, String jobId, String json) {
    }

    void putJobVersion(JobDocument version);

    /** Every stored version of every job. */
    List<JobDocument> jobVersions();

    /** Removes the job's versions and evaluations ({@code ?purge=true}). */
    void purgeJob(String namespace, String jobId);

    /** Keeps at most {@code keep} newest versions of the job. */
    void trimVersions(String namespace, String jobId, int keep);

    void putEvaluation(Document evaluation);

    List<Document> evaluations();

    void putPlacement(Document placement);

    List<Document> placements();

    void deletePlacement(String allocId);

    /** Stores a deployment ({@code Document.json}: the deployment with its allocations' health). */
    void putDeployment(Document deployment);

    List<Document> deployments();

    /** Removes a purged job's deployments. */
    void deleteDeployments(String namespace, String jobId);

    /** The last launch of a periodic job (epoch milliseconds; Nomad's {@code PeriodicLaunch}). */
    record PeriodicLaunch(String namespace, String jobId, long launchMillis) {
    }

    void putPeriodicLaunch(PeriodicLaunch launch);

    List<PeriodicLaunch> periodicLaunches();

    void deletePeriodicLaunch(String namespace, String jobId);

    /** Stores the node's eligibility and drain (one JSON document, see {@link NodeDrain}). */
    void putNodeDrain(String json);

    /** The node's eligibility and drain as last stored, if ever. */
    java.util.Optional<String> nodeDrain();
}
