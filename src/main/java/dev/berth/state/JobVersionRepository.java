package dev.berth.state;

import java.util.List;

import org.springframework.data.jpa.repository.JpaRepository;

interface JobVersionRepository extends JpaRepository<JobVersionEntity, String> {
    List<JobVersionEntity> findByNamespaceAndJobId(String namespace, String jobId);
}
