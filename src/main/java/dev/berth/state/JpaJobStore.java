package dev.berth.state;

import java.util.Comparator;
import java.util.List;

import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import dev.berth.job.JobStore;

/** The job feature's store in H2: {@code job_version}, {@code job_evaluation}, {@code job_placement}, {@code job_periodic_launch}. */
@Component
class JpaJobStore implements JobStore {

    private final JobVersionRepository versions;
    private final JobEvaluationRepository evaluations;
    private final JobPlacementRepository placements;
    private final JobPeriodicLaunchRepository launches;

    JpaJobStore(JobVersionRepository versions, JobEvaluationRepository evaluations,
                JobPlacementRepository placements, JobPeriodicLaunchRepository launches) {
        this.versions = versions;
        this.evaluations = evaluations;
        this.placements = placements;
        this.launches = launches;
    }

    @Override
    @Transactional
    public void putJobVersion(JobDocument v) {
        versions.save(new JobVersionEntity(v.namespace(), v.jobId(), v.version(), v.json()));
    }

    @Override
    @Transactional(readOnly = true)
    public List<JobDocument> jobVersions() {
        return versions.findAll().stream().map(e -> new JobDocument(e.namespace(), e.jobId(), e.version(), e.json())).toList();
    }

    @Override
    @Transactional
    public void purgeJob(String namespace, String jobId) {
        versions.deleteAll(versions.findByNamespaceAndJobId(namespace, jobId));
        evaluations.deleteAll(evaluations.findByNamespaceAndJobId(namespace, jobId));
    }

    @Override
    @Transactional
    public void trimVersions(String namespace, String jobId, int keep) {
        List<JobVersionEntity> all = versions.findByNamespaceAndJobId(namespace, jobId).stream()
                .sorted(Comparator.comparingLong(JobVersionEntity::version).reversed()).toList();
        if (all.size() > keep) {
            versions.deleteAll(all.subList(keep, all.size()));
        }
    }

    @Override
    @Transactional
    public void putEvaluation(Document e) {
        evaluations.save(new JobEvaluationEntity(e.id(), e.namespace(), e.jobId(), e.json()));
    }

    @Override
    @Transactional(readOnly = true)
    public List<Document> evaluations() {
        return evaluations.findAll().stream().map(e -> new Document(e.id(), e.namespace(), e.jobId(), e.json())).toList();
    }

    @Override
    @Transactional
    public void putPlacement(Document p) {
        placements.save(new JobPlacementEntity(p.id(), p.namespace(), p.jobId(), p.json()));
    }

    @Override
    @Transactional(readOnly = true)
    public List<Document> placements() {
        return placements.findAll().stream().map(e -> new Document(e.id(), e.namespace(), e.jobId(), e.json())).toList();
    }

    @Override
    @Transactional
    public void deletePlacement(String allocId) {
        placements.deleteById(allocId);
    }

    @Override
    @Transactional
    public void putPeriodicLaunch(PeriodicLaunch l) {
        launches.save(new JobPeriodicLaunchEntity(l.namespace(), l.jobId(), l.launchMillis()));
    }

    @Override
    @Transactional
    public void deletePeriodicLaunch(String namespace, String jobId) {
        launches.deleteById(namespace + "\u0000" + jobId);
    }

    @Override
    @Transactional(readOnly = true)
    public List<PeriodicLaunch> periodicLaunches() {
        return launches.findAll().stream().map(e -> new PeriodicLaunch(e.namespace(), e.jobId(), e.launchMillis())).toList();
    }
}
