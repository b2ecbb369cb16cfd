package dev.berth.state;

import java.util.List;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

interface AllocTaskRepository extends JpaRepository<AllocTaskEntity, String> {

    List<AllocTaskEntity> findByAllocId(String allocId);

    @Modifying
    @Query("delete from AllocTaskEntity t where t.allocId = :allocId")
    void deleteByAllocId(@Param("allocId") String allocId);
}
