package dev.berth.driver.docker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import dev.berth.driver.TaskConfig;

/** Builds task configs and drivers for the tests that run against the local engine (see .ci/docker-setup.sh). */
final class DockerTestTasks {

    /** Built by .ci/docker-setup.sh from Debian's busybox-static; never pulled. */
    static final String BUSYBOX = "berth-test/busybox:1";
    static final String LOCAL_ENGINE = "unix:///var/run/docker.sock";
    /** This test JVM's node ID: other test runs sharing the engine label their containers with their own. */
    static final String NODE_ID = "test-" + UUID.randomUUID();

    private DockerTestTasks() {
    }

    static DockerEngineProperties engine(String host) {
        return new DockerEngineProperties(host, Duration.ofSeconds(5), Duration.ofSeconds(2), Duration.ofSeconds(60));
    }

    static DockerDriver driver() {
        return new DockerDriver(true, "never", engine(LOCAL_ENGINE), NODE_ID, Clock.systemUTC());
    }

    /** A task with an alloc dir under {@code root}, running {@code sh -c script} in busybox. */
    static TaskConfig shell(Path root, String script, int memoryMb, int cpuMhz) throws IOException {
        return task(root, Map.of("image", BUSYBOX, "command", "sh", "args", java.util.List.of("-c", script)), memoryMb, cpuMhz);
    }

    static TaskConfig task(Path root, Map<String, Object> config, int memoryMb, int cpuMhz) throws IOException {
        String allocId = UUID.randomUUID().toString();
        Path allocDir = Files.createDirectories(root.resolve(allocId));
        Path taskDir = Files.createDirectories(allocDir.resolve("web"));
        Path logs = Files.createDirectories(allocDir.resolve("alloc/logs"));
        return new TaskConfig(allocId + "/web", allocId, "web", "job1", "group1", "default", config,
                Map.of("NOMAD_ALLOC_ID", allocId, "NOMAD_TASK_NAME", "web"), allocDir, taskDir,
                logs.resolve("web.stdout.0"), logs.resolve("web.stderr.0"), cpuMhz, memoryMb, 0, null);
    }
}
