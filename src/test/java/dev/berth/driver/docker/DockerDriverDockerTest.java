package dev.berth.driver.docker;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.NotFoundException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;

import dev.berth.driver.DriverException;
import dev.berth.driver.ExitResult;
import dev.berth.driver.HealthState;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.TaskNotFoundException;

import static dev.berth.driver.docker.DockerTestTasks.BUSYBOX;
import static dev.berth.driver.docker.DockerTestTasks.shell;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The docker driver against the real local engine (started by .ci/docker-setup.sh) with the locally built busybox
 * image. Fails, never skips, when the engine is missing: a Docker test that silently skips is a defect. Containers
 * are inspected independently through Testcontainers' own client.
 */
class DockerDriverDockerTest {

    private static DockerClient inspector;

    @TempDir
    Path root;

    private final DockerDriver driver = DockerTestTasks.driver();
    private final List<TaskHandle> started = new ArrayList<>();

    @BeforeAll
    static void engine() {
        inspector = DockerClientFactory.instance().client();
        assertThat(inspector.inspectImageCmd(BUSYBOX).exec().getId()).as("run .ci/docker-setup.sh first").isNotBlank();
    }

    @AfterEach
    void removeContainers() {
        for (TaskHandle handle : started) {
            try {
                driver.destroy(handle, true);
            } catch (DriverException e) {
                // best effort: the test itself may have destroyed it
            }
        }
    }

    private TaskHandle start(TaskConfig task) throws DriverException {
        TaskHandle handle = driver.start(task);
        started.add(handle);
        return handle;
    }

    private static InspectContainerResponse inspect(TaskHandle handle) {
        return inspector.inspectContainerCmd(handle.driverState().get(DockerDriver.STATE_CONTAINER_ID)).exec();
    }

    @Test
    void fingerprintIsHealthyWithTheEnginesVersion() {
        var fingerprint = driver.fingerprint();

        assertThat(fingerprint.health()).isEqualTo(HealthState.HEALTHY);
        assertThat(fingerprint.attributes()).containsEntry("driver.docker", "true").containsKey("driver.docker.version");
    }

    @Test
    void fullLifecycleWithLogsEnvMountsLabelsAndLimits() throws Exception {
        TaskConfig task = shell(root, "echo out-$GREETING; echo err >&2; echo from-task > /alloc/data/hello; ls /local /secrets >/dev/null; exit 3",
                64, 300);
        task = new TaskConfig(task.id(), task.allocId(), task.taskName(), task.jobName(), task.taskGroup(), task.namespace(),
                Map.of("image", BUSYBOX, "command", "sh", "args", task.config().get("args"), "env", Map.of("GREETING", "hello"),
                        "labels", Map.of("team", "berth")),
                task.env(), task.allocDir(), task.taskDir(), task.stdoutPath(), task.stderrPath(), 300, 64, 0, null);
        Files.createDirectories(task.allocDir().resolve("data"));

        TaskHandle handle = start(task);
        ExitResult exit = driver.waitTask(handle).get(30, TimeUnit.SECONDS);

        assertThat(exit).isEqualTo(new ExitResult(3, 0, false, null));
        assertThat(Files.readString(task.stdoutPath())).isEqualTo("out-hello\n");
        assertThat(Files.readString(task.stderrPath())).isEqualTo("err\n");
        assertThat(Files.readString(task.allocDir().resolve("data/hello"))).isEqualTo("from-task\n");
        InspectContainerResponse container = inspect(handle);
        assertThat(container.getName()).isEqualTo("/web-" + task.allocId());
        assertThat(container.getConfig().getLabels()).containsEntry("team", "berth")
                .containsEntry(DockerDriver.LABEL_ALLOC_ID, task.allocId()).containsEntry(DockerDriver.LABEL_TASK, "web");
        assertThat(container.getConfig().getEnv()).contains("NOMAD_ALLOC_DIR=/alloc", "NOMAD_ALLOC_ID=" + task.allocId());
        assertThat(container.getHostConfig().getNetworkMode()).isEqualTo("none");
        assertThat(container.getHostConfig().getMemory()).isEqualTo(64L * 1024 * 1024);
        assertThat(container.getHostConfig().getCpuShares()).isEqualTo(300);
        // the container's cgroup as its init's /proc/<pid>/cgroup names it: docker/<id> with the cgroupfs driver,
        // system.slice/docker-<id>.scope with systemd's; in this host's cgroup version
        assertThat(handle.driverState().get("cgroup")).contains(handle.driverState().get("container_id"));
        assertThat(handle.driverState()).containsEntry("cgroup_version", dev.berth.host.cgroup.HostCgroups.versionNumber());

        driver.destroy(handle, false);
        assertThatThrownBy(() -> inspect(handle)).isInstanceOf(NotFoundException.class);
        assertThat(driver.waitTask(handle)).isCompletedExceptionally();
    }

    @Test
    void killTimeoutIsHonouredForAContainerIgnoringSigterm() throws Exception {
        TaskHandle handle = start(shell(root, "trap '' TERM; echo up; while true; do sleep 1; done", 0, 0));
        await().atMost(Duration.ofSeconds(10)).until(() -> Boolean.TRUE.equals(inspect(handle).getState().getRunning()));

        long begin = System.nanoTime();
        driver.stop(handle, Duration.ofMillis(1500), "SIGTERM");
        long tookMillis = (System.nanoTime() - begin) / 1_000_000;

        assertThat(tookMillis).as("waited the kill timeout, then SIGKILL").isBetween(1400L, 10_000L);
        ExitResult exit = driver.waitTask(handle).get(10, TimeUnit.SECONDS);
        assertThat(exit.exitCode()).isEqualTo(137);
        assertThat(inspect(handle).getState().getRunning()).isFalse();
    }

    @Test
    void stopReturnsAsSoonAsTheSignalEndsTheTask() throws Exception {
        TaskHandle handle = start(shell(root, "trap 'exit 0' TERM; while true; do sleep 0.1; done", 0, 0));
        await().atMost(Duration.ofSeconds(10)).until(() -> Boolean.TRUE.equals(inspect(handle).getState().getRunning()));

        long begin = System.nanoTime();
        driver.stop(handle, Duration.ofSeconds(20), null);

        assertThat((System.nanoTime() - begin) / 1_000_000).isLessThan(10_000L);
        assertThat(driver.waitTask(handle).get(5, TimeUnit.SECONDS)).isEqualTo(ExitResult.ofCode(0));
    }

    @Test
    void signalReachesTheTaskAndUnknownSignalsAreRefused() throws Exception {
        TaskConfig task = shell(root, "trap 'echo got-usr1' USR1; echo ready; while true; do sleep 0.1; done", 0, 0);
        TaskHandle handle = start(task);
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(task.stdoutPath()).contains("ready"));

        driver.signal(handle, "SIGUSR1");

        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(task.stdoutPath()).contains("got-usr1"));
        assertThatThrownBy(() -> driver.signal(handle, "SIGBOGUS")).isInstanceOf(DriverException.class).hasMessageContaining("unknown signal");
        assertThatThrownBy(() -> driver.destroy(handle, false)).hasMessage("cannot destroy running task");
    }

    @Test
    void recoversARunningContainerInAFreshDriverInstance() throws Exception {
        TaskConfig task = shell(root, "echo first; while :; do sleep 1; done", 0, 0);
        TaskHandle handle = start(task);
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(task.stdoutPath()).contains("first"));

        DockerDriver fresh = new DockerDriver(true, "never", DockerTestTasks.engine(DockerTestTasks.LOCAL_ENGINE), DockerTestTasks.NODE_ID, Clock.systemUTC());
        TaskHandle recovered = fresh.recover(new TaskHandle("docker", handle.taskId(), handle.startedAt(),
                Map.of("container_id", handle.driverState().get("container_id"), "stdout_path", task.stdoutPath().toString())));

        assertThat(recovered.driverState()).containsEntry("container_id", handle.driverState().get("container_id"))
                .containsKey("cgroup");
        assertThat(fresh.waitTask(recovered)).isNotDone();
        fresh.stop(recovered, Duration.ofSeconds(1), "SIGKILL");
        assertThat(fresh.waitTask(recovered).get(10, TimeUnit.SECONDS).exitCode()).isEqualTo(137);
    }

    @Test
    void aRecoveredContainersLogsResumeAfterTheLastCopiedLineWithNothingLostOrDuplicated() throws Exception {
        // numbered lines on both streams; the counter also goes to /alloc so the test sees progress while no agent copies
        TaskConfig task = shell(root, "i=0; while :; do i=$((i+1)); echo out-$i; echo err-$i >&2; echo $i > /alloc/counter; "
                + "sleep 0.1; done", 0, 0);
        DockerDriver first = DockerTestTasks.driver();
        TaskHandle handle = first.start(task);
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(task.stdoutPath()).contains("out-3\n"));
            first.close(); // the agent stops; the container keeps writing
            int copied = lastNumber(task.stdoutPath(), "out-");
            Path counter = task.allocDir().resolve("counter");
            await().atMost(Duration.ofSeconds(20)).until(() -> counterValue(counter) >= copied + 10);
            assertThat(lastNumber(task.stdoutPath(), "out-")).as("nothing copied while down").isEqualTo(copied);

            DockerDriver fresh = DockerTestTasks.driver();
            try {
                TaskHandle recovered = fresh.recover(new TaskHandle("docker", handle.taskId(), handle.startedAt(), handle.driverState()));
                int target = counterValue(counter) + 5;
                await().atMost(Duration.ofSeconds(20)).until(() -> lastNumber(task.stdoutPath(), "out-") >= target
                        && lastNumber(task.stderrPath(), "err-") >= target);
                fresh.stop(recovered, Duration.ofSeconds(1), "SIGKILL");
                fresh.waitTask(recovered).get(10, TimeUnit.SECONDS);
                fresh.destroy(recovered, true);
            } finally {
                fresh.close();
            }
            assertConsecutive(Files.readAllLines(task.stdoutPath()), "out-");
            assertConsecutive(Files.readAllLines(task.stderrPath()), "err-");
        } finally {
            try {
                driver.destroy(handle, true);
            } catch (DriverException alreadyGone) {
                // destroyed above
            }
        }
    }

    private static int counterValue(Path counter) throws java.io.IOException {
        String text = Files.exists(counter) ? Files.readString(counter).trim() : "";
        return text.isEmpty() ? 0 : Integer.parseInt(text);
    }

    private static int lastNumber(Path log, String prefix) throws java.io.IOException {
        List<String> lines = Files.readAllLines(log);
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).startsWith(prefix)) {
                return Integer.parseInt(lines.get(i).substring(prefix.length()));
            }
        }
        return 0;
    }

    private static void assertConsecutive(List<String> lines, String prefix) {
        assertThat(lines).isNotEmpty();
        for (int i = 0; i < lines.size(); i++) {
            assertThat(lines.get(i)).as("line %d of %d", i + 1, lines.size()).isEqualTo(prefix + (i + 1));
        }
    }

    @Test
    void recoverOfAMissingContainerIsTaskNotFound() {
        TaskHandle gone = new TaskHandle("docker", "a/web", null, Map.of("container_id", "0123456789abcdef0123"));

        assertThatThrownBy(() -> driver.recover(gone)).isInstanceOf(TaskNotFoundException.class);
        assertThatThrownBy(() -> driver.stop(gone, Duration.ofSeconds(1), null)).isInstanceOf(TaskNotFoundException.class);
    }

    @Test
    void everyOomKillIsReported() throws Exception {
        // 16 MB limit, the shell tries to hold 64 MB. Several at once: the engine's own OOMKilled flag loses about
        // one in seven of these (a race in its exit handling), so one container alone would not show that bug.
        List<TaskHandle> handles = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            handles.add(start(shell(root, "x=$(head -c 67108864 /dev/zero | tr '\\0' a); echo never", 16, 0)));
        }

        for (TaskHandle handle : handles) {
            ExitResult exit = driver.waitTask(handle).get(60, TimeUnit.SECONDS);
            assertThat(exit.oomKilled()).as("OOM reported for %s", handle.taskId()).isTrue();
            assertThat(exit.exitCode()).isEqualTo(137);
        }
    }

    @Test
    void aSigkillThatIsNoOomIsNotReportedAsOne() throws Exception {
        TaskHandle handle = start(shell(root, "while :; do sleep 1; done", 64, 0));
        await().atMost(Duration.ofSeconds(10)).until(() -> Boolean.TRUE.equals(inspect(handle).getState().getRunning()));

        driver.stop(handle, Duration.ofSeconds(1), "SIGKILL");

        assertThat(driver.waitTask(handle).get(10, TimeUnit.SECONDS)).isEqualTo(new ExitResult(137, 0, false, null));
    }

    @Test
    void missingImageFailsFastWithPullPolicyNever() throws Exception {
        TaskConfig task = DockerTestTasks.task(root, Map.of("image", "berth-test/does-not-exist:0"), 0, 0);

        long begin = System.nanoTime();
        assertThatThrownBy(() -> driver.start(task)).isInstanceOf(DriverException.class)
                .hasMessageContaining("Failed to find docker image \"berth-test/does-not-exist:0\"")
                .satisfies(e -> assertThat(((DriverException) e).recoverable()).isFalse());
        assertThat((System.nanoTime() - begin) / 1_000_000).isLessThan(5_000L);
    }
}
