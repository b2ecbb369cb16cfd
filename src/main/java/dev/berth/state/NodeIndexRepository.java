package dev.berth.state;

import org.springframework.data.jpa.repository.JpaRepository;

interface NodeIndexRepository extends JpaRepository<NodeIndexEntity, Integer> {
}
