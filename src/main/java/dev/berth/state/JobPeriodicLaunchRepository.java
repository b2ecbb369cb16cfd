package dev.berth.state;

import org.springframework.data.jpa.repository.JpaRepository;

interface JobPeriodicLaunchRepository extends JpaRepository<JobPeriodicLaunchEntity, String> {
}
