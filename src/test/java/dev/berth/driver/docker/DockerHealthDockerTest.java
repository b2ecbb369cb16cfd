package dev.berth.driver.docker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.berth.driver.DriverFingerprint;
import dev.berth.driver.HealthState;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The driver's health follows the engine: a second, private dockerd (own socket, data and exec root) is started,
 * stopped and started again by the test, so the shared engine other tests use is never touched.
 */
class DockerHealthDockerTest {

    private Path dir;
    private Path socket;
    private Process dockerd;

    @BeforeEach
    void paths() throws IOException {
        // unix socket paths must stay short (108 bytes)
        dir = Files.createTempDirectory(Path.of("/tmp"), "bdh");
        socket = dir.resolve("d.sock");
        Files.writeString(dir.resolve("daemon.json"), "{}");
    }

    @AfterEach
    void stopDaemon() throws Exception {
        stop();
        // dockerd leaves root-owned state behind; remove what we can
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void healthFollowsTheEngineGoingAwayAndComingBack() throws Exception {
        DockerDriver driver = new DockerDriver(true, "never",
                new DockerEngineProperties("unix://" + socket, Duration.ofSeconds(5), Duration.ofSeconds(1),
                        Duration.ofSeconds(10)),
                DockerTestTasks.NODE_ID, Clock.systemUTC());
        try (driver) {
            assertThat(driver.fingerprint()).isEqualTo(unreachable());

            start();
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                    .until(() -> driver.fingerprint().health() == HealthState.HEALTHY);
            assertThat(driver.fingerprint().attributes()).containsEntry("driver.docker", "true")
                    .containsEntry("driver.docker.os_type", "linux");

            stop();
            long begin = System.nanoTime();
            assertThat(driver.fingerprint()).isEqualTo(unreachable());
            assertThat((System.nanoTime() - begin) / 1_000_000).as("the ping is bounded").isLessThan(5_000L);

            start();
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                    .until(() -> driver.fingerprint().health() == HealthState.HEALTHY);
        }
    }

    @Test
    void disabledDriverIsUndetectedWithoutTouchingTheEngine() {
        DockerDriver driver = new DockerDriver(false, "never",
                new DockerEngineProperties("unix://" + socket, Duration.ofSeconds(5), Duration.ofSeconds(1),
                        Duration.ofSeconds(10)),
                DockerTestTasks.NODE_ID, Clock.systemUTC());
        try (driver) {
            assertThat(driver.fingerprint()).isEqualTo(DriverFingerprint.disabled());
        }
    }

    private static DriverFingerprint unreachable() {
        return new DriverFingerprint(HealthState.UNHEALTHY, "Docker daemon not reachable", java.util.Map.of());
    }

    private void start() throws IOException {
        dockerd = new ProcessBuilder("dockerd", "--host", "unix://" + socket, "--config-file", dir.resolve("daemon.json").toString(),
                "--data-root", dir.resolve("data").toString(), "--exec-root", dir.resolve("exec").toString(),
                "--pidfile", dir.resolve("dockerd.pid").toString(), "--bridge=none", "--iptables=false", "--ip-masq=false")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("dockerd.log").toFile()))
                .start();
    }

    private void stop() throws InterruptedException {
        if (dockerd == null) {
            return;
        }
        var children = dockerd.descendants().toList();
        dockerd.destroy();
        if (!dockerd.waitFor(30, TimeUnit.SECONDS)) {
            dockerd.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        // its private containerd normally exits with it; make sure
        children.forEach(ProcessHandle::destroyForcibly);
        dockerd = null;
    }
}
