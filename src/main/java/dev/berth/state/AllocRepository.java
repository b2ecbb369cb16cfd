package dev.berth.state;

import org.springframework.data.jpa.repository.JpaRepository;

interface AllocRepository extends JpaRepository<AllocEntity, String> {
}
