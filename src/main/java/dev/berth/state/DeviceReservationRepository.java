package dev.berth.state;

import java.util.List;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;

interface DeviceReservationRepository extends JpaRepository<DeviceReservationEntity, String> {

    List<DeviceReservationEntity> findAllByOrderByCreatedAtAscInstanceIdAsc();

    @Modifying
    @Query("delete from DeviceReservationEntity r where r.allocId = :allocId")
    int deleteByAllocId(String allocId);
}
