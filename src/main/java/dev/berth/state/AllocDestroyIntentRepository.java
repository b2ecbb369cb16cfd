package dev.berth.state;

import org.springframework.data.jpa.repository.JpaRepository;

interface AllocDestroyIntentRepository extends JpaRepository<AllocDestroyIntentEntity, String> {
}
