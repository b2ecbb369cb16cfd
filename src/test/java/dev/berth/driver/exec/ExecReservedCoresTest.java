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

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.config.NodeIdentity;
import dev.berth.driver.DriverException;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.rawexec.RawExecDriver;
import dev.berth.driver.rawexec.TaskOutputs;
import dev.berth.host.CoreSet;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.host.cgroup.CpuPartition;
import dev.berth.host.cgroup.HostCgroups;
import dev.berth.host.cgroup.TaskCgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Reserved cores with real processes in this host's real cgroups: v1's cpuset hierarchy on the build machine, v2's
 * {@code cpuset.cpus} in the VM of {@code .ci/v2-vm.sh}. A task that reserved a core runs on it alone, and a task that
 * shares the node's cores is moved off it while it is reserved and back once it is free. Needs two cores the agent may
 * run on; it fails rather than skips without them.
 */
class ExecReservedCoresTest {

    private static final NodeIdentity NODE = new NodeIdentity(UUID.randomUUID().toString());

    @TempDir
    Path root;

    private CgroupManager cgroups;
    private ExecDriver driver;
    private final List<TaskHandle> started = new ArrayList<>();

    @BeforeEach
    void driver() {
        cgroups = HostCgroups.manager(NODE);
        RawExecDriver processes = new RawExecDriver(true, Clock.systemUTC(), root.resolve("exits"), new ScheduledThreadPoolExecutor(1),
                Duration.ofMillis(50), TaskOutputs.APPEND_TO_FILES);
        driver = new ExecDriver(true, processes, cgroups, 4096, 2000);
    }

    @AfterEach
    void cleanUp() {
        for (TaskHandle handle : started) {
            try {
                driver.destroy(handle, true);
            } catch (DriverException e) {
                // already gone
            }
        }
        driver.close();
    }

    @AfterAll
    static void removeParent() throws IOException {
        HostCgroups.removeParent(NODE);
    }

    @Test
    void aTaskWithOneReservedCoreRunsOnItAloneAndTheSharedTasksMoveOff() throws Exception {
        CoreSet reservable = allowedCores(ProcessHandle.current().pid());
        assertThat(reservable.size()).as("this test needs two cores the agent may run on").isGreaterThanOrEqualTo(2);
        CoreSet pinned = CoreSet.of(reservable.ids().getLast());
        CoreSet rest = reservable.minus(pinned);

        TaskConfig shared = task("echo up; exec sleep 600", CoreSet.EMPTY);
        TaskHandle sharedHandle = start(shared);
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(shared.stdoutPath()).contains("up"));
        TaskCgroup sharedCgroup = driver.cgroupOf(sharedHandle).orElseThrow();
        assertThat(cpus(sharedCgroup)).as("no core reserved yet: the parent's").isEqualTo(reservable);

        // admission reserved the core: the shared task leaves it before the reserving task starts
        TaskConfig reserved = task("grep Cpus_allowed_list /proc/self/status; exec sleep 600", pinned);
        cgroups.applyPartition(new CpuPartition(reservable, List.of(new CpuPartition.Reservation(reserved.allocId(), "web", pinned))));
        assertThat(cpus(sharedCgroup)).isEqualTo(rest);
        long sharedPid = sharedCgroup.pids().getFirst();
        assertThat(allowedCores(sharedPid)).isEqualTo(rest);

        TaskHandle reservedHandle = start(reserved);
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(reserved.stdoutPath()).contains("Cpus_allowed_list"));
        TaskCgroup reservedCgroup = driver.cgroupOf(reservedHandle).orElseThrow();
        assertThat(cpus(reservedCgroup)).isEqualTo(pinned);
        assertThat(Files.readString(reserved.stdoutPath())).contains("Cpus_allowed_list:\t" + pinned + "\n");
        assertThat(read(reservedCgroup.dir("cpuset"), "cpuset.cpus")).isEqualTo(pinned);

        // the reservation ends: the shared task may run on every core again
        cgroups.applyPartition(CpuPartition.unreserved(reservable));
        assertThat(cpus(sharedCgroup)).isEqualTo(reservable);
        assertThat(allowedCores(sharedPid)).isEqualTo(reservable);
    }

    private TaskConfig task(String script, CoreSet cores) throws IOException {
        String allocId = UUID.randomUUID().toString();
        Path taskDir = Files.createDirectories(root.resolve(allocId).resolve("web"));
        Map<String, Object> config = Map.of("command", "/bin/sh", "args", List.of("-c", script));
        return new TaskConfig(allocId + "/web", allocId, "web", "job", "group", "default", config, Map.of("PATH", "/usr/bin:/bin"),
                root.resolve(allocId), taskDir, taskDir.resolve("out"), taskDir.resolve("err"), 0, 32, 0, null, cores);
    }

    private TaskHandle start(TaskConfig task) throws DriverException {
        TaskHandle handle = driver.start(task);
        started.add(handle);
        return handle;
    }

    /** The cores the cgroup's tasks may run on (v2: an empty {@code cpuset.cpus} means the parent's, so read the effective set). */
    private static CoreSet cpus(TaskCgroup cgroup) throws IOException {
        return read(cgroup.dir("cpuset"), cgroup.version() == CgroupVersion.V2 ? "cpuset.cpus.effective" : "cpuset.effective_cpus");
    }

    private static CoreSet read(Path dir, String file) throws IOException {
        return CoreSet.parse(Files.readString(dir.resolve(file)));
    }

    private static CoreSet allowedCores(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream().filter(l -> l.startsWith("Cpus_allowed_list:"))
                .map(l -> CoreSet.parse(l.substring(l.indexOf(':') + 1))).findFirst().orElseThrow();
    }
}
