package dev.berth.fingerprint;

import java.time.Clock;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import org.springframework.boot.availability.ApplicationAvailabilityBean;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;

import static org.assertj.core.api.Assertions.assertThat;

class FingerprintReadinessTest {

    private final ApplicationAvailabilityBean availability = new ApplicationAvailabilityBean();
    private final NodeRegistry registry = TestNodes.registry(Clock.fixed(TestNodes.T0, ZoneOffset.UTC));
    private final FingerprintReadiness readiness = new FingerprintReadiness(
            event -> availability.onApplicationEvent((AvailabilityChangeEvent<?>) event), registry);

    @Test
    void refusesTrafficUntilHostAndDriverRoundsCompleted() {
        availability.onApplicationEvent(new AvailabilityChangeEvent<>(this, ReadinessState.ACCEPTING_TRAFFIC));

        readiness.starting();
        assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);

        readiness.hostRoundCompleted();
        assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
        assertThat(registry.current().status()).isEqualTo(NodeStatus.INITIALIZING);

        readiness.driverRoundCompleted();
        assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
        assertThat(registry.current().status()).isEqualTo(NodeStatus.READY);
        assertThat(readiness.completed()).isTrue();
    }

    @Test
    void orderOfTheRoundsDoesNotMatter() {
        readiness.starting();
        readiness.driverRoundCompleted();
        assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);

        readiness.hostRoundCompleted();
        assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
    }
}
