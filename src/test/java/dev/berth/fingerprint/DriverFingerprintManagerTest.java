package dev.berth.fingerprint;

import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.availability.ApplicationAvailabilityBean;
import org.springframework.boot.availability.AvailabilityChangeEvent;

import dev.berth.driver.DriverFingerprint;
import dev.berth.driver.DriverManager;
import dev.berth.driver.HealthState;
import dev.berth.driver.TaskDriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class DriverFingerprintManagerTest {

    private final NodeRegistry registry = TestNodes.registry(Clock.systemUTC());
    private final ApplicationAvailabilityBean availability = new ApplicationAvailabilityBean();
    private final FingerprintReadiness readiness = new FingerprintReadiness(
            event -> availability.onApplicationEvent((AvailabilityChangeEvent<?>) event), registry);
    private final CountDownLatch release = new CountDownLatch(1);
    private DriverFingerprintManager manager;

    @AfterEach
    void stop() {
        release.countDown();
        if (manager != null) {
            manager.stop();
        }
    }

    /** A step that answers only once {@code gate} opened, so the state before it can be asserted without a race. */
    private static java.util.function.Supplier<DriverFingerprint> after(CountDownLatch gate,
                                                                        java.util.function.Supplier<DriverFingerprint> step) {
        return () -> {
            try {
                gate.await();
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            return step.get();
        };
    }

    private void start(Duration timeout, TaskDriver... drivers) {
        manager = new DriverFingerprintManager(new DriverManager(List.of(drivers)), registry, readiness,
                new FingerprintProperties(timeout, "", List.of()), Clock.systemUTC());
        manager.start();
    }

    /** Seed 000: a driver that starts unhealthy must become healthy on the node. */
    @Test
    void driverThatStartsUnhealthyBecomesHealthyOnTheNode() {
        CountDownLatch healthy = new CountDownLatch(1);
        ScriptedDriver driver = new ScriptedDriver("mock_driver", Duration.ofMillis(20))
                .thenReturn(HealthState.UNHEALTHY, "waiting for the socket", Map.of("driver.mock_driver", "true"))
                .then(after(healthy, () -> new DriverFingerprint(HealthState.HEALTHY, "Healthy",
                        Map.of("driver.mock_driver", "true"))));

        start(Duration.ofSeconds(30), driver);
        // start() returns after the first round: the unhealthy state is on the node already.
        assertThat(registry.current().drivers().get("mock_driver").healthy()).isFalse();
        assertThat(registry.current().attributes()).containsEntry("driver.mock_driver", "1");

        healthy.countDown();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            DriverInfo info = registry.current().drivers().get("mock_driver");
            assertThat(info.healthy()).isTrue();
            assertThat(info.detected()).isTrue();
            assertThat(info.healthDescription()).isEqualTo("Healthy");
        });
        assertThat(registry.current().events()).extracting(NodeEvent::message).contains("Healthy");
    }

    @Test
    void aThrowingDriverIsUndetectedWithNomadsDescriptionAndRecovers() {
        CountDownLatch recovered = new CountDownLatch(1);
        ScriptedDriver driver = new ScriptedDriver("flaky", Duration.ofMillis(20))
                .thenThrow("socket gone")
                .then(after(recovered, () -> DriverFingerprint.healthy(Map.of("driver.flaky", "true"))));

        start(Duration.ofSeconds(30), driver);
        DriverInfo failed = registry.current().drivers().get("flaky");
        assertThat(failed.detected()).isFalse();
        assertThat(failed.healthy()).isFalse();
        assertThat(failed.healthDescription()).isEqualTo("failed to fingerprint driver");
        assertThat(registry.current().attributes()).doesNotContainKey("driver.flaky");

        recovered.countDown();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(registry.current().attributes()).containsEntry("driver.flaky", "1"));
    }

    @Test
    void aHangingDriverTimesOutWithoutHoldingUpOthersOrPilingUpCalls() {
        ScriptedDriver hanging = new ScriptedDriver("hanging", Duration.ofMillis(10)).then(() -> {
            try {
                release.await();
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            return DriverFingerprint.healthy(Map.of());
        });
        ScriptedDriver fine = new ScriptedDriver("fine", Duration.ofMillis(10))
                .then(() -> DriverFingerprint.healthy(Map.of()));

        start(Duration.ofMillis(200), hanging, fine);

        assertThat(registry.current().drivers().get("hanging").healthDescription()).isEqualTo("failed to fingerprint driver");
        assertThat(registry.current().drivers().get("fine").healthy()).isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> fine.calls() >= 10);
        // The hanging call is waited for again instead of being called anew every period.
        assertThat(hanging.calls()).isEqualTo(1);

        release.countDown();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(registry.current().drivers().get("hanging").healthy()).isTrue());
    }

    @Test
    void aDriverReturningNoFingerprintCountsAsFailed() {
        start(Duration.ofSeconds(5), new ScriptedDriver("broken", Duration.ofSeconds(30)).then(() -> null));

        assertThat(registry.current().drivers().get("broken")).satisfies(d -> {
            assertThat(d.detected()).isFalse();
            assertThat(d.healthDescription()).isEqualTo("failed to fingerprint driver");
        });
    }

    @Test
    void firstRoundCompletionMakesTheNodeReady() {
        readiness.hostRoundCompleted();

        start(Duration.ofSeconds(5), new ScriptedDriver("d", Duration.ofSeconds(30))
                .then(() -> DriverFingerprint.healthy(Map.of())));

        assertThat(registry.current().status()).isEqualTo(NodeStatus.READY);
        assertThat(registry.current().drivers()).containsKey("d");
    }

    @Test
    void stopEndsPolling() {
        ScriptedDriver driver = new ScriptedDriver("d", Duration.ofMillis(5)).then(() -> DriverFingerprint.healthy(Map.of()));
        start(Duration.ofSeconds(5), driver);
        await().atMost(Duration.ofSeconds(5)).until(() -> driver.calls() >= 3);

        manager.stop();
        int calls = driver.calls();

        // Polling has ended: a further stretch of many periods adds at most one in-flight call.
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(1))
                .until(() -> driver.calls() <= calls + 1);
        assertThat(manager.isRunning()).isFalse();
    }
}
