package dev.berth.state;

import java.util.List;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;

import dev.berth.job.JobStore;

/**
 * The job feature's store in H2: {@code job_version}, {@code job_evaluation}, {@code job_placement},
 * {@code job_periodic_launch}, {@code job_deployment}, {@code node_drain}. A put replaces the row with the same key ({@code MERGE ... KEY}) or adds it.
 */
@Component
class JdbcJobStore implements JobStore {

    private static final RowMapper<Document> DOCUMENT = (rs, n) -> new Document(rs.getString("id"), rs.getString("namespace"),
            rs.getString("job_id"), rs.getString("json"));

    private final JdbcClient jdbc;
    private final StateTransactions tx;

    JdbcJobStore(JdbcClient jdbc, PlatformTransactionManager transactionManager) {
        this.jdbc = jdbc;
        this.tx = new StateTransactions(transactionManager);
    }

    @Override
    public void putJobVersion(JobDocument v) {
        tx.write(() -> jdbc.sql("MERGE INTO job_version (id, namespace, job_id, version, json) KEY (id) VALUES (?, ?, ?, ?, ?)")
                .params(v.namespace() + "/" + v.jobId() + "/" + v.version(), v.namespace(), v.jobId(), v.version(), v.json())
                .update());
    }

    @Override
    public List<JobDocument> jobVersions() {
        return tx.read(() -> jdbc.sql("SELECT namespace, job_id, version, json FROM job_version")
                .query((rs, n) -> new JobDocument(rs.getString("namespace"), rs.getString("job_id"), rs.getLong("version"),
                        rs.getString("json")))
                .list());
    }

    @Override
    public void purgeJob(String namespace, String jobId) {
        tx.write(() -> {
            jdbc.sql("DELETE FROM job_version WHERE namespace = ? AND job_id = ?").params(namespace, jobId).update();
            jdbc.sql("DELETE FROM job_evaluation WHERE namespace = ? AND job_id = ?").params(namespace, jobId).update();
        });
    }

    @Override
    public void trimVersions(String namespace, String jobId, int keep) {
        tx.write(() -> {
            List<Long> newestFirst = jdbc.sql("SELECT version FROM job_version WHERE namespace = ? AND job_id = ? ORDER BY version DESC")
                    .params(namespace, jobId).query(Long.class).list();
            if (newestFirst.size() > keep) {
                jdbc.sql("DELETE FROM job_version WHERE namespace = ? AND job_id = ? AND version <= ?")
                        .params(namespace, jobId, newestFirst.get(keep)).update();
            }
        });
    }

    @Override
    public void putEvaluation(Document e) {
        tx.write(() -> putDocument("job_evaluation", e));
    }

    @Override
    public List<Document> evaluations() {
        return tx.read(() -> jdbc.sql("SELECT id, namespace, job_id, json FROM job_evaluation").query(DOCUMENT).list());
    }

    @Override
    public void putPlacement(Document p) {
        tx.write(() -> putDocument("job_placement", p));
    }

    @Override
    public List<Document> placements() {
        return tx.read(() -> jdbc.sql("SELECT id, namespace, job_id, json FROM job_placement").query(DOCUMENT).list());
    }

    private void putDocument(String table, Document d) {
        jdbc.sql("MERGE INTO " + table + " (id, namespace, job_id, json) KEY (id) VALUES (?, ?, ?, ?)")
                .params(d.id(), d.namespace(), d.jobId(), d.json()).update();
    }

    @Override
    public void deletePlacement(String allocId) {
        tx.write(() -> jdbc.sql("DELETE FROM job_placement WHERE id = ?").param(allocId).update());
    }

    @Override
    public void putDeployment(Document d) {
        tx.write(() -> putDocument("job_deployment", d));
    }

    @Override
    public List<Document> deployments() {
        return tx.read(() -> jdbc.sql("SELECT id, namespace, job_id, json FROM job_deployment").query(DOCUMENT).list());
    }

    @Override
    public void deleteDeployments(String namespace, String jobId) {
        tx.write(() -> jdbc.sql("DELETE FROM job_deployment WHERE namespace = ? AND job_id = ?").params(namespace, jobId).update());
    }

    @Override
    public void putPeriodicLaunch(PeriodicLaunch l) {
        tx.write(() -> jdbc.sql("MERGE INTO job_periodic_launch (id, namespace, job_id, launch_millis) KEY (id) VALUES (?, ?, ?, ?)")
                .params(l.namespace() + "\u0000" + l.jobId(), l.namespace(), l.jobId(), l.launchMillis()).update());
    }

    @Override
    public void deletePeriodicLaunch(String namespace, String jobId) {
        tx.write(() -> jdbc.sql("DELETE FROM job_periodic_launch WHERE id = ?").param(namespace + "\u0000" + jobId).update());
    }

    @Override
    public List<PeriodicLaunch> periodicLaunches() {
        return tx.read(() -> jdbc.sql("SELECT namespace, job_id, launch_millis FROM job_periodic_launch")
                .query((rs, n) -> new PeriodicLaunch(rs.getString("namespace"), rs.getString("job_id"), rs.getLong("launch_millis")))
                .list());
    }

    @Override
    public void putNodeDrain(String json) {
        tx.write(() -> jdbc.sql("MERGE INTO node_drain (id, json) KEY (id) VALUES ('node', ?)").param(json).update());
    }

    @Override
    public java.util.Optional<String> nodeDrain() {
        return tx.read(() -> jdbc.sql("SELECT json FROM node_drain WHERE id = 'node'").query(String.class).optional());
    }
}
