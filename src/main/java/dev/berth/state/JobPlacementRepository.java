package dev.berth.state;

import org.springframework.data.jpa.repository.JpaRepository;

interface JobPlacementRepository extends JpaRepository<JobPlacementEntity, String> {
}
