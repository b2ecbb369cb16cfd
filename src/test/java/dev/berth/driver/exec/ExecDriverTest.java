package dev.berth.driver.exec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.config.NodeIdentity;
import dev.berth.driver.DriverException;
import dev.berth.driver.ExecSession;
import dev.berth.driver.ExitResult;
import dev.berth.driver.HealthState;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskConfigValidationException;
import dev.berth.driver.TaskHandle;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.host.cgroup.HostCgroups;
import dev.berth.host.cgroup.OomKills;
import dev.berth.host.cgroup.TaskCgroup;
import dev.berth.driver.rawexec.RawExecDriver;
import dev.berth.driver.rawexec.TaskOutputs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The exec driver with real processes in this host's real cgroups (root, read-write): v1 on the build machine, v2 in
 * the VM of {@code .ci/v2-vm.sh}; the same behaviour is asserted on both. It fails rather than skips without them.
 */
class ExecDriverTest {

    /** One node id for the class, so all its task cgroups share one parent that {@link #removeParent} cleans up. */
    private static final NodeIdentity NODE = new NodeIdentity(UUID.randomUUID().toString());

    @TempDir
    Path root;

    private ExecDriver driver;
    private final List<TaskHandle> started = new ArrayList<>();

    @BeforeEach
    void driver() throws IOException {
        driver = newDriver();
    }

    /** A driver instance as an agent (re)start makes one: its own raw_exec, the same exit-file dir and node. */
    private ExecDriver newDriver() throws IOException {
        CgroupManager cgroups = HostCgroups.manager(NODE);
        ScheduledThreadPoolExecutor poller = new ScheduledThreadPoolExecutor(1);
        RawExecDriver processes = new RawExecDriver(true, Clock.systemUTC(), root.resolve("exits"), poller, Duration.ofMillis(50),
                TaskOutputs.APPEND_TO_FILES);
        return new ExecDriver(true, processes, cgroups, 4096, 2000);
    }

    @AfterEach
    void cleanUp() {
        for (TaskHandle handle : started) {
            try {
                driver.destroy(handle, true);
            } catch (DriverException e) {
                // already destroyed by the test
            }
        }
        driver.close();
    }

    @AfterAll
    static void removeParent() throws IOException {
        HostCgroups.removeParent(NODE);
    }

    private TaskConfig task(String script, int memoryMb, int cpuMhz, Map<String, Object> extra) throws IOException {
        String allocId = UUID.randomUUID().toString();
        Path taskDir = Files.createDirectories(root.resolve(allocId).resolve("web"));
        Map<String, Object> config = new java.util.HashMap<>(Map.of("command", "/bin/sh", "args", List.of("-c", script)));
        config.putAll(extra);
        return new TaskConfig(allocId + "/web", allocId, "web", "job", "group", "default", config,
                Map.of("PATH", "/usr/bin:/bin"), root.resolve(allocId), taskDir, taskDir.resolve("out"), taskDir.resolve("err"),
                cpuMhz, memoryMb, 0, null);
    }

    private TaskHandle start(TaskConfig task) throws DriverException {
        TaskHandle handle = driver.start(task);
        started.add(handle);
        return handle;
    }

    @Test
    void execRunsInsideTheTasksCgroupWithItsEnvironmentAndDirectory() throws Exception {
        TaskConfig task = task("echo started; exec sleep 600", 32, 0, Map.of());
        TaskHandle handle = start(task);
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(task.stdoutPath()).contains("started"));
        TaskCgroup cgroup = driver.cgroupOf(handle).orElseThrow();

        ExecSession look = driver.exec(handle, new ExecSession.Request(List.of("/bin/sh", "-c", "echo $PATH; pwd; cat /proc/self/cgroup"),
                false, 0, 0));
        String out = new String(look.stdout().readAllBytes());
        assertThat(look.exit().get(10, TimeUnit.SECONDS)).isZero();
        assertThat(out).startsWith("/usr/bin:/bin\n" + task.taskDir() + "\n").contains(HostCgroups.membershipLine(cgroup.name()));

        // after an agent restart the fresh driver finds the environment again from the task's process
        ExecDriver fresh = newDriver();
        try {
            TaskHandle recovered = fresh.recover(handle);
            ExecSession again = fresh.exec(recovered, new ExecSession.Request(List.of("/bin/sh", "-c", "echo $PATH"), false, 0, 0));
            assertThat(new String(again.stdout().readAllBytes())).isEqualTo("/usr/bin:/bin\n");
            assertThat(again.exit().get(10, TimeUnit.SECONDS)).isZero();
        } finally {
            fresh.close();
        }
    }

    /**
     * The task's 32 MB limit holds for an exec'd command too: the kernel's OOM killer ends it. Which other processes of
     * the cgroup the kernel kills while it runs out is its choice (a slow machine can see a second kill before the
     * first victim's memory is freed), so the task's own fate is not asserted here.
     */
    @Test
    void anExecdCommandIsHeldToTheTasksMemoryLimit() throws Exception {
        TaskConfig task = task("echo started; exec sleep 600", 32, 0, Map.of());
        TaskHandle handle = start(task);
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(task.stdoutPath()).contains("started"));

        ExecSession hog = driver.exec(handle, new ExecSession.Request(List.of("/bin/sh", "-c",
                "x=$(head -c 100000000 /dev/zero | tr '\\0' a); echo never"), false, 0, 0));

        assertThat(hog.exit().get(60, TimeUnit.SECONDS)).isEqualTo(137);
        assertThat(new String(hog.stdout().readAllBytes())).doesNotContain("never");
        assertThat(OomKills.count(driver.cgroupOf(handle).orElseThrow())).isPositive();
    }

    @Test
    void execIntoAStoppedTaskIsRefused() throws Exception {
        TaskHandle handle = start(task("exit 0", 0, 0, Map.of()));
        driver.waitTask(handle).get(10, TimeUnit.SECONDS);
        assertThatThrownBy(() -> driver.exec(handle, new ExecSession.Request(List.of("true"), false, 0, 0)))
                .isInstanceOf(DriverException.class).hasMessage("task is not running");
    }

    @Test
    void fingerprintIsHealthyWithCgroups() {
        assertThat(driver.fingerprint().health()).isEqualTo(HealthState.HEALTHY);
        assertThat(driver.fingerprint().attributes()).containsEntry("driver.exec", "true").containsEntry("driver.exec.cgroup_version", HostCgroups.versionNumber());
    }

    @Test
    void limitsAreWrittenAndEveryTaskProcessRunsInsideTheCgroup() throws Exception {
        TaskConfig task = task("sleep 600 & echo started; wait", 64, 512, Map.of("pids_limit", 32));
        TaskHandle handle = start(task);
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(task.stdoutPath()).contains("started"));

        TaskCgroup cgroup = driver.cgroupOf(handle).orElseThrow();
        assertThat(HostCgroups.memoryLimit(cgroup)).isEqualTo(64L * 1024 * 1024);
        assertThat(HostCgroups.cpuWeight(cgroup)).isEqualTo(HostCgroups.expectedCpuWeight(cgroup, 512));
        assertThat(HostCgroups.pidsMax(cgroup)).isEqualTo(32);
        assertThat(handle.driverState()).containsEntry("cgroup", cgroup.name()).containsEntry("cgroup_version", HostCgroups.versionNumber());
        // the task's shell and its sleep are inside; the launch shim (raw_exec's exit recorder) is not, so an OOM storm
        // in the task can never kill the process that records its exit
        await().atMost(Duration.ofSeconds(10)).until(() -> cgroup.pids().size() == 2);
        List<Long> pids = cgroup.pids();
        long shim = Long.parseLong(handle.driverState().get("pid"));
        assertThat(pids).doesNotContain(shim);
        for (long pid : pids) {
            assertThat(HostCgroups.isMember(pid, cgroup.name())).as("pid %d in %s", pid, cgroup.name()).isTrue();
        }
    }

    @Test
    void cpuHardLimitBecomesACfsQuotaOfTheTasksShare() throws Exception {
        // 500 MHz on this driver's 2,000 MHz cores: a quarter of a core per 50 ms period
        TaskConfig task = task("echo started; exec sleep 600", 0, 500, Map.of("cpu_hard_limit", true, "cpu_cfs_period", 50000));
        TaskHandle handle = start(task);
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(task.stdoutPath()).contains("started"));

        TaskCgroup cgroup = driver.cgroupOf(handle).orElseThrow();
        assertThat(HostCgroups.cpuQuota(cgroup)).isEqualTo("12500 50000");
        assertThat(HostCgroups.cpuWeight(cgroup)).isEqualTo(HostCgroups.expectedCpuWeight(cgroup, 500));
    }

    @Test
    void withoutCpuHardLimitThereIsNoQuota() throws Exception {
        TaskConfig task = task("echo started; exec sleep 600", 0, 500, Map.of());
        TaskHandle handle = start(task);
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(task.stdoutPath()).contains("started"));

        assertThat(HostCgroups.cpuQuota(driver.cgroupOf(handle).orElseThrow())).isEqualTo("max 100000");
    }

    @Test
    void memoryLimitIsEnforcedAndTheOomKillReported() throws Exception {
        // 32 MB limit; the shell tries to hold 100 MB
        TaskHandle handle = start(task("x=$(head -c 100000000 /dev/zero | tr '\\0' a); echo never", 32, 0, Map.of()));

        ExitResult exit = driver.waitTask(handle).get(60, TimeUnit.SECONDS);

        assertThat(exit.oomKilled()).isTrue();
        assertThat(exit.signal()).isEqualTo(9);
        assertThat(exit.exitCode()).isEqualTo(137);
    }

    @Test
    void aNormalExitAfterAnEarlierOomIsNotReportedAsOom() throws Exception {
        TaskConfig first = task("x=$(head -c 100000000 /dev/zero | tr '\\0' a)", 32, 0, Map.of());
        TaskHandle oom = start(first);
        assertThat(driver.waitTask(oom).get(60, TimeUnit.SECONDS).oomKilled()).isTrue();
        // the restart of the same task reuses its cgroup, whose oom_kill counter already counts one
        TaskConfig again = new TaskConfig(first.id(), first.allocId(), first.taskName(), first.jobName(), first.taskGroup(),
                first.namespace(), Map.of("command", "/bin/sh", "args", List.of("-c", "exit 0")), first.env(), first.allocDir(),
                first.taskDir(), first.stdoutPath(), first.stderrPath(), 0, 32, 0, null);
        driver.destroy(oom, false);
        started.remove(oom);
        TaskHandle second = start(again);

        assertThat(driver.waitTask(second).get(30, TimeUnit.SECONDS)).isEqualTo(ExitResult.ofCode(0));
    }

    @Test
    void stopKillsEvenProcessesThatLeftTheGroupAndDestroyRemovesTheCgroup() throws Exception {
        // setsid: the daemon leaves the task's process group, but not its cgroup
        TaskConfig task = task("setsid sleep 600 & echo started; while :; do sleep 1; done", 0, 0, Map.of());
        TaskHandle handle = start(task);
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(task.stdoutPath()).contains("started"));
        TaskCgroup cgroup = driver.cgroupOf(handle).orElseThrow();
        await().atMost(Duration.ofSeconds(5)).until(() -> cgroup.pids().size() >= 3);

        driver.stop(handle, Duration.ofSeconds(2), "SIGTERM");

        assertThat(driver.waitTask(handle).get(10, TimeUnit.SECONDS).successful()).isFalse();
        await().atMost(Duration.ofSeconds(5)).until(() -> cgroup.pids().isEmpty());
        driver.destroy(handle, false);
        for (Path dir : cgroup.dirs().values()) {
            assertThat(dir).doesNotExist();
        }
        assertThat(driver.cgroupOf(handle)).isEmpty();
    }

    @Test
    void aFreshDriverRecoversTheTaskAndItsCgroup() throws Exception {
        TaskConfig task = task("echo started; while :; do sleep 1; done", 64, 0, Map.of());
        TaskHandle handle = start(task);
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(task.stdoutPath()).contains("started"));

        ExecDriver fresh = newDriver();
        try {
            TaskHandle recovered = fresh.recover(handle);

            assertThat(recovered.driver()).isEqualTo("exec");
            assertThat(recovered.driverState()).containsEntry("cgroup", handle.driverState().get("cgroup"));
            assertThat(fresh.waitTask(recovered)).isNotDone();
            TaskCgroup cgroup = fresh.cgroupOf(recovered).orElseThrow();
            fresh.stop(recovered, Duration.ofSeconds(1), "SIGKILL");
            assertThat(fresh.waitTask(recovered).get(10, TimeUnit.SECONDS).successful()).isFalse();
            fresh.destroy(recovered, false);
            assertThat(cgroup.dirs().values()).allSatisfy(dir -> assertThat(dir).doesNotExist());
        } finally {
            fresh.close();
        }
    }

    @Test
    void strictConfig() {
        assertThatThrownBy(() -> driver.validate(Map.of("command", "/bin/true", "image", "x")))
                .isInstanceOf(TaskConfigValidationException.class).hasMessageContaining("\"image\"");
        assertThatThrownBy(() -> driver.validate(Map.of("args", List.of("x")))).isInstanceOf(TaskConfigValidationException.class);
        assertThatThrownBy(() -> driver.validate(Map.of("command", "/bin/true", "cpu_cfs_period", 999)))
                .isInstanceOf(TaskConfigValidationException.class).hasMessageContaining("between 1000 and 1000000");
        assertThatThrownBy(() -> driver.validate(Map.of("command", "/bin/true", "cpu_hard_limit", "yes")))
                .isInstanceOf(TaskConfigValidationException.class).hasMessageContaining("cpu_hard_limit");
    }


    /** Issue 7: the start-up reconciliation finds this driver's live tasks from /proc, named as exec tasks. */
    @Test
    void liveTasksFindsTheRunningTaskFromProc() throws Exception {
        TaskHandle handle = start(task("exec sleep 600", 64, 0, Map.of()));

        await().atMost(Duration.ofSeconds(10)).until(() -> driver.liveTasks().size() == 1);
        TaskHandle found = driver.liveTasks().getFirst();

        assertThat(found.driver()).isEqualTo(ExecDriver.NAME);
        assertThat(found.driverState()).containsEntry("pid", handle.driverState().get("pid"))
                .containsEntry("start_ticks", handle.driverState().get("start_ticks"))
                .containsEntry("exit_file", handle.driverState().get("exit_file"));
        driver.destroy(handle, true);
        assertThat(driver.liveTasks()).isEmpty();
    }
}
