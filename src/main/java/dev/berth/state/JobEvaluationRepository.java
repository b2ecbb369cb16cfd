package dev.berth.state;

import java.util.List;

import org.springframework.data.jpa.repository.JpaRepository;

interface JobEvaluationRepository extends JpaRepository<JobEvaluationEntity, String> {
    List<JobEvaluationEntity> findByNamespaceAndJobId(String namespace, String jobId);
}
