package dev.berth.driver.docker;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.github.dockerjava.api.DockerClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;

import dev.berth.driver.DriverException;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskHandle;
import dev.berth.host.CoreSet;
import dev.berth.host.cgroup.CpuPartition;

import static dev.berth.driver.docker.DockerTestTasks.BUSYBOX;
import static dev.berth.driver.docker.DockerTestTasks.shell;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Reserved cores against the real engine: a container that reserved a core runs on it alone, and containers that
 * reserved none are kept off it while it is held (at create, and moved when the reservation comes later) and put back
 * on every reservable core once it is free. Read back through the engine's own inspect, as an operator would.
 */
class DockerSharedCoresDockerTest {

    private static final CoreSet RESERVABLE = CoreSet.of(0, 1);

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
                // best effort
            }
        }
        driver.close();
    }

    @Test
    void containersWithoutReservedCoresStayOffTheReservedOnes() throws Exception {
        driver.applyPartition(CpuPartition.unreserved(RESERVABLE));
        TaskHandle early = start(shell(root, "sleep 600", 32, 100), CoreSet.EMPTY);
        assertThat(cpuset(early)).as("no core reserved: the engine's default").isEmpty();

        TaskConfig pinnedTask = shell(root, "sleep 600", 32, 100);
        CpuPartition reserved = new CpuPartition(RESERVABLE,
                List.of(new CpuPartition.Reservation(pinnedTask.allocId(), pinnedTask.taskName(), CoreSet.of(0))));
        driver.applyPartition(reserved);
        TaskHandle pinned = start(pinnedTask, CoreSet.of(0));
        TaskHandle late = start(shell(root, "sleep 600", 32, 100), CoreSet.EMPTY);

        assertThat(cpuset(pinned)).as("the reserving container").isEqualTo("0");
        assertThat(cpuset(late)).as("created while core 0 is reserved").isEqualTo("1");
        await().untilAsserted(() -> assertThat(cpuset(early)).as("running before the reservation, moved").isEqualTo("1"));

        driver.destroy(pinned, true); // its allocation ends: the core is free again
        driver.applyPartition(CpuPartition.unreserved(RESERVABLE));
        await().untilAsserted(() -> {
            assertThat(cpuset(early)).as("back on every reservable core").isEqualTo("0-1");
            assertThat(cpuset(late)).isEqualTo("0-1");
        });
    }

    private TaskHandle start(TaskConfig task, CoreSet cores) throws DriverException {
        TaskConfig withCores = new TaskConfig(task.id(), task.allocId(), task.taskName(), task.jobName(), task.taskGroup(),
                task.namespace(), task.config(), task.env(), task.allocDir(), task.taskDir(), task.stdoutPath(), task.stderrPath(),
                task.cpuMhz(), task.memoryMb(), task.memoryMaxMb(), task.devices(), cores);
        TaskHandle handle = driver.start(withCores);
        started.add(handle);
        return handle;
    }

    private static String cpuset(TaskHandle handle) {
        String cpus = inspector.inspectContainerCmd(handle.driverState().get(DockerDriver.STATE_CONTAINER_ID)).exec()
                .getHostConfig().getCpusetCpus();
        return cpus == null ? "" : cpus;
    }
}
