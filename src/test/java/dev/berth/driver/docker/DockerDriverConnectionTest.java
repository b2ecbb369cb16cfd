package dev.berth.driver.docker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.driver.DriverFingerprint;
import dev.berth.driver.HealthState;

/** The engine connections are made on first use: a disabled driver never makes them (nor loads docker-java). */
class DockerDriverConnectionTest {

    @TempDir
    Path dir;

    private DockerEngineProperties engine() {
        // no engine listens here: a connection made would be refused, never reached
        return new DockerEngineProperties("unix://" + dir.resolve("absent.sock"), Duration.ofSeconds(5),
                Duration.ofSeconds(1), Duration.ofSeconds(10));
    }

    @Test
    void aDisabledDriverFingerprintsListsAndClosesWithoutConnecting() {
        DockerDriver driver = new DockerDriver(false, "never", engine(), "node-1", Clock.systemUTC());
        try (driver) {
            assertThat(driver.fingerprint()).isEqualTo(DriverFingerprint.disabled());
            assertThat(driver.liveTasks()).isEmpty();
            assertThat(driver.connected()).isFalse();
        }
        assertThat(driver.connected()).isFalse();
    }

    @Test
    void anEnabledDriverConnectsOnItsFirstFingerprint() {
        DockerDriver driver = new DockerDriver(true, "never", engine(), "node-1", Clock.systemUTC());
        try (driver) {
            assertThat(driver.connected()).isFalse();
            assertThat(driver.fingerprint().health()).isEqualTo(HealthState.UNHEALTHY);
            assertThat(driver.connected()).isTrue();
        }
    }
}
