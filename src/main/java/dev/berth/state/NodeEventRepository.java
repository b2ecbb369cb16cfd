package dev.berth.state;

import java.util.List;

import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;

interface NodeEventRepository extends JpaRepository<NodeEventEntity, Long> {

    /** Newest first. */
    List<NodeEventEntity> findByOrderByIdDesc(Pageable page);

    @Modifying
    @Query("delete from NodeEventEntity e where e.id < :id")
    int deleteOlderThan(Long id);
}
