package dev.berth.driver.exec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.config.NodeIdentity;
import dev.berth.driver.DriverException;
import dev.berth.driver.DriverFingerprint;
import dev.berth.driver.HealthState;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.rawexec.RawExecDriver;
import dev.berth.driver.rawexec.TaskOutputs;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.host.cgroup.CgroupMounts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * exec is healthy only when it can enforce what it promises: against a directory laid out like a cgroup2 root whose
 * delegated controllers the test chooses. Nothing is started where the cgroup cannot be made.
 */
class ExecDriverHealthTest {

    @TempDir
    Path dir;

    private ExecDriver driver;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    private ExecDriver driver(String delegated) throws IOException {
        Path root = Files.createDirectories(dir.resolve("cgroup"));
        Files.writeString(root.resolve("cgroup.controllers"), delegated);
        CgroupManager cgroups = new CgroupManager(new CgroupMounts(Map.of(), root), new NodeIdentity("0123456789"), d -> { });
        RawExecDriver processes = new RawExecDriver(true, Clock.systemUTC(), dir.resolve("exits"), new ScheduledThreadPoolExecutor(1),
                Duration.ofMillis(50), TaskOutputs.APPEND_TO_FILES);
        driver = new ExecDriver(true, processes, cgroups, 4096, 2000);
        return driver;
    }

    @Test
    void unhealthyWithTheReasonWhenTheMemoryControllerIsNotDelegated() throws Exception {
        DriverFingerprint fingerprint = driver("cpu pids\n").fingerprint();

        assertThat(fingerprint.health()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(fingerprint.description()).isEqualTo("exec cannot enforce task resources: cgroup v2 controllers memory are not "
                + "delegated to " + dir.resolve("cgroup") + " (its cgroup.controllers: cpu pids)");

        Path taskDir = Files.createDirectories(dir.resolve("a/t"));
        TaskConfig task = new TaskConfig("a/t", "a", "t", "j", "g", "default", Map.of("command", "/bin/true"), Map.of(),
                dir.resolve("a"), taskDir, taskDir.resolve("out"), taskDir.resolve("err"), 100, 64, 0, List.of());
        assertThatThrownBy(() -> driver.start(task)).isInstanceOf(DriverException.class)
                .hasMessage("cannot create a cgroup for task a/t: cgroup v2 controllers memory are not delegated to "
                        + dir.resolve("cgroup") + " (its cgroup.controllers: cpu pids)");
        assertThat(dir.resolve("exits")).satisfiesAnyOf(d -> assertThat(d).doesNotExist(), d -> assertThat(d).isEmptyDirectory());
    }

    @Test
    void healthyWhenMemoryCpuAndPidsAreDelegated() throws Exception {
        DriverFingerprint fingerprint = driver("cpuset cpu io memory pids\n").fingerprint();

        assertThat(fingerprint.health()).isEqualTo(HealthState.HEALTHY);
        assertThat(fingerprint.attributes()).containsEntry("driver.exec.cgroup_version", "2");
    }
}
