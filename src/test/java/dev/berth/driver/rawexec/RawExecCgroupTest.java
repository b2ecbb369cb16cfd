package dev.berth.driver.rawexec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.config.NodeIdentity;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskHandle;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.host.cgroup.HostCgroups;
import dev.berth.host.cgroup.TaskCgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** raw_exec with per-task cgroups on this host's real cgroups: v1 here, v2 in the VM of {@code .ci/v2-vm.sh}. */
class RawExecCgroupTest {

    @TempDir
    Path dir;

    private CgroupManager cgroups;
    private RawExecDriver driver;
    private TaskHandle handle;

    @BeforeEach
    void setUp() throws Exception {
        cgroups = HostCgroups.manager(new NodeIdentity(UUID.randomUUID().toString()));
        driver = new RawExecDriver(true, Clock.systemUTC(), dir.resolve("exit"),
                new ScheduledThreadPoolExecutor(1, Thread.ofVirtual().factory()), Duration.ofMillis(50), TaskOutputs.APPEND_TO_FILES,
                cgroups, true);
    }

    @AfterEach
    void tearDown() throws Exception {
        if (driver == null) {
            return;
        }
        if (handle != null) {
            driver.destroy(handle, true);
        }
        driver.close();
        cgroups.removeParentIfEmpty();
    }

    @Test
    void theTaskIsInItsCgroupFromItsFirstInstructionAndDestroyKillsEvenEscapedDescendants() throws Exception {
        // the task forks at once; one child even leaves the process group with setsid
        handle = driver.start(task("web", "/bin/sh", "-c", "sleep 300 & setsid sleep 301 & wait"));

        String name = handle.driverState().get("cgroup");
        assertThat(name).startsWith(cgroups.parentName() + "/alloc1.web");
        TaskCgroup cgroup = cgroups.find(name).orElseThrow();
        long leader = Long.parseLong(handle.driverState().get("pid"));
        // shim + task shell + two sleeps, all born inside
        await().atMost(Duration.ofSeconds(10)).until(() -> cgroup.pids().size() == 4);
        assertThat(cgroup.pids()).contains(leader);
        List<Long> pids = cgroup.pids();

        driver.destroy(handle, true);
        handle = null;

        for (long pid : pids) {
            await().atMost(Duration.ofSeconds(10)).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
        }
        assertThat(cgroups.find(name)).isEmpty();
        for (Path d : cgroup.dirs().values()) {
            assertThat(d).doesNotExist();
        }
    }

    @Test
    void stopAlsoKillsWhatLeftTheProcessGroup() throws Exception {
        handle = driver.start(task("db", "/bin/sh", "-c", "setsid sleep 302 & exec sleep 303"));
        TaskCgroup cgroup = cgroups.find(handle.driverState().get("cgroup")).orElseThrow();
        await().atMost(Duration.ofSeconds(10)).until(() -> cgroup.pids().size() == 3);

        driver.stop(handle, Duration.ofSeconds(5), "SIGTERM");

        await().atMost(Duration.ofSeconds(10)).until(() -> cgroup.pids().isEmpty());
    }

    @Test
    void aTaskThatExitsTakesItsLeftoversAndItsCgroupWithIt() throws Exception {
        handle = driver.start(task("batch", "/bin/sh", "-c", "setsid sleep 304 & sleep 1; exit 3"));
        TaskCgroup cgroup = cgroups.find(handle.driverState().get("cgroup")).orElseThrow();
        await().atMost(Duration.ofSeconds(10)).until(() -> cgroup.pids().size() >= 3);
        long escaped = cgroup.pids().stream().filter(pid -> ProcessHandle.of(pid).flatMap(p -> p.info().commandLine())
                .map(c -> c.contains("sleep 304")).orElse(false)).findFirst().orElseThrow();

        assertThat(driver.waitTask(handle).get(30, java.util.concurrent.TimeUnit.SECONDS).exitCode()).isEqualTo(3);

        // by the time the exit is reported the cgroup is gone, and the daemon that left the group with it
        assertThat(cgroups.find(cgroup.name())).isEmpty();
        await().atMost(Duration.ofSeconds(10)).until(() -> ProcessHandle.of(escaped).map(p -> !p.isAlive()).orElse(true));
    }

    @Test
    void anOomKillInTheTasksCgroupIsReportedForRawExecToo() throws Exception {
        Path go = dir.resolve("go");
        // raw_exec sets no limit: the test imposes one (as a host running out of memory would) before the task allocates
        handle = driver.start(task("hog", "/bin/sh", "-c",
                "while [ ! -f " + go + " ]; do sleep 0.05; done; x=$(head -c 100000000 /dev/zero | tr '\\0' a); echo never"));
        TaskCgroup cgroup = cgroups.find(handle.driverState().get("cgroup")).orElseThrow();
        HostCgroups.limitMemory(cgroup, 32L << 20);
        Files.createFile(go);

        dev.berth.driver.ExitResult exit = driver.waitTask(handle).get(60, java.util.concurrent.TimeUnit.SECONDS);

        assertThat(exit.oomKilled()).isTrue();
        assertThat(exit.exitCode()).isEqualTo(137);
    }

    @Test
    void aTaskDoesNotInheritTheAgentsOomScoreAdjustment() throws Exception {
        Path self = Path.of("/proc/self/oom_score_adj");
        String original = Files.readString(self).trim();
        Files.writeString(self, "500"); // the agent's own setting, which its children inherit at fork
        try {
            Path out = dir.resolve("adj.out");
            handle = driver.start(task("adj", "/bin/sh", "-c", "cat /proc/self/oom_score_adj > " + out + "; sleep 300"));
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(out) && !Files.readString(out).isBlank());
            assertThat(Files.readString(out).trim()).isEqualTo("0");
        } finally {
            Files.writeString(self, original);
        }
    }

    private TaskConfig task(String name, String command, String... args) throws Exception {
        Path taskDir = Files.createDirectories(dir.resolve(name));
        Map<String, Object> config = new HashMap<>();
        config.put("command", command);
        config.put("args", List.of(args));
        return new TaskConfig("alloc1/" + name, "alloc1", name, "job", "group", "default", config, Map.of("PATH", "/usr/bin:/bin"),
                dir, taskDir, dir.resolve(name + ".stdout"), dir.resolve(name + ".stderr"), 0, 0, 0, List.of());
    }
}
