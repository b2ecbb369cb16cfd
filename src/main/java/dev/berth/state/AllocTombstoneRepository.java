package dev.berth.state;

import org.springframework.data.jpa.repository.JpaRepository;

interface AllocTombstoneRepository extends JpaRepository<AllocTombstoneEntity, String> {
}
