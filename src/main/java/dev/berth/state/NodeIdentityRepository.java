package dev.berth.state;

import org.springframework.data.jpa.repository.JpaRepository;

interface NodeIdentityRepository extends JpaRepository<NodeIdentityEntity, Integer> {
}
