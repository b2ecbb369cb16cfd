package dev.berth.fingerprint;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.availability.ApplicationAvailabilityBean;
import org.springframework.boot.availability.AvailabilityChangeEvent;

import dev.berth.driver.DriverFingerprint;
import dev.berth.driver.DriverManager;
import dev.berth.driver.HealthState;
import dev.berth.driver.mock.MockDriver;
import dev.berth.config.Sleeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Seed 000 with the real mock_driver: a driver that starts unhealthy must become healthy on the node (Nomad #4984). */
class MockDriverHealthRegressionTest {

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final MockDriver mock = new MockDriver(true, Clock.systemUTC(), scheduler, Sleeper.system());
    private final NodeRegistry registry = TestNodes.registry(Clock.systemUTC());
    private final ApplicationAvailabilityBean availability = new ApplicationAvailabilityBean();
    private DriverFingerprintManager manager;

    @AfterEach
    void stop() throws Exception {
        if (manager != null) {
            manager.stop();
        }
        mock.close();
        scheduler.shutdownNow();
    }

    @Test
    void mockDriverThatStartsUnhealthyBecomesHealthyOnTheNode() {
        mock.scriptHealth(new DriverFingerprint(HealthState.UNHEALTHY, "mock is warming up",
                Map.of("driver.mock_driver", "true")));
        FingerprintReadiness readiness = new FingerprintReadiness(
                event -> availability.onApplicationEvent((AvailabilityChangeEvent<?>) event), registry);
        manager = new DriverFingerprintManager(new DriverManager(List.of(mock)), registry, readiness,
                FingerprintProperties.defaults(), Clock.systemUTC());

        manager.start();

        DriverInfo unhealthy = registry.current().drivers().get(MockDriver.NAME);
        assertThat(unhealthy.detected()).isTrue();
        assertThat(unhealthy.healthy()).isFalse();
        assertThat(unhealthy.healthDescription()).isEqualTo("mock is warming up");

        mock.scriptHealth(null);

        // mock_driver fingerprints every 500 ms.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            DriverInfo info = registry.current().drivers().get(MockDriver.NAME);
            assertThat(info.healthy()).isTrue();
            assertThat(info.healthDescription()).isEqualTo("Healthy");
            assertThat(info.attributes()).containsEntry("driver.mock_driver", "true");
            assertThat(info.updateTime()).isAfter(unhealthy.updateTime());
        });
        assertThat(registry.current().attributes()).containsEntry("driver.mock_driver", "1");
        assertThat(registry.current().events()).filteredOn(e -> e.subsystem().equals("Driver"))
                .extracting(NodeEvent::message).containsSubsequence("Healthy");
    }
}
