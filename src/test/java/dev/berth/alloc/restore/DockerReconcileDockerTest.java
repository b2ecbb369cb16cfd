package dev.berth.alloc.restore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.NotFoundException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;

import dev.berth.alloc.store.AllocRecord;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.alloc.store.InMemoryAllocStateStore;
import dev.berth.alloc.task.TaskLocalState;
import dev.berth.driver.DriverManager;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.docker.DockerDriver;
import dev.berth.driver.docker.DockerEngineProperties;

import static dev.berth.alloc.runner.RunnerHarness.alloc;
import static dev.berth.alloc.runner.RunnerHarness.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Crash reconciliation of docker tasks against the real engine: what a SIGKILLed agent left behind (a container started
 * but whose handle was never persisted, one created but never started) is removed; a container whose handle is
 * persisted is kept and recovered as the same container; another agent's containers on the same host are not touched.
 */
class DockerReconcileDockerTest {

    private static final String BUSYBOX = "berth-test/busybox:1";
    private static final DockerEngineProperties ENGINE = new DockerEngineProperties("unix:///var/run/docker.sock",
            Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(30));

    @TempDir
    Path root;

    private final DockerClient engine = DockerClientFactory.instance().client();
    private final String node = "node-" + UUID.randomUUID();
    private final String otherNode = "node-" + UUID.randomUUID();
    private final List<String> containers = new ArrayList<>();
    private final List<DockerDriver> drivers = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        drivers.forEach(DockerDriver::close);
        for (String id : containers) {
            try {
                engine.removeContainerCmd(id).withForce(true).exec();
            } catch (NotFoundException e) {
                // removed by the test, as it should be
            }
        }
    }

    @Test
    void unknownContainersOfThisNodeAreRemovedKnownOnesKeptOtherNodesUntouched() throws Exception {
        DockerDriver before = driver(node);
        InMemoryAllocStateStore store = new InMemoryAllocStateStore();

        // a task whose handle was persisted
        TaskConfig knownTask = loop("known");
        TaskHandle known = track(before.start(knownTask));
        store.putAlloc(new AllocRecord(alloc(knownTask.allocId(), "service", null, task("web", Map.of())), ClientStatus.RUNNING, ""));
        store.putTaskLocalState(knownTask.allocId(), "web", new TaskLocalState(known, java.util.Map.of(), null, false));
        // SIGKILL between start and persisting the handle: the alloc is stored, the handle is not
        TaskConfig lostTask = loop("lost");
        TaskHandle lost = track(before.start(lostTask));
        store.putAlloc(new AllocRecord(alloc(lostTask.allocId(), "service", null, task("web", Map.of())), ClientStatus.PENDING, ""));
        store.putTaskLocalState(lostTask.allocId(), "web", TaskLocalState.empty());
        // SIGKILL between create and start: a created container with Berth's labels
        String created = engine.createContainerCmd(BUSYBOX).withName("web-" + UUID.randomUUID())
                .withCmd("sh", "-c", "sleep 600")
                .withLabels(Map.of(DockerDriver.LABEL_NODE_ID, node, DockerDriver.LABEL_ALLOC_ID, UUID.randomUUID().toString(),
                        DockerDriver.LABEL_TASK, "web"))
                .withHostConfig(com.github.dockerjava.api.model.HostConfig.newHostConfig().withNetworkMode("none"))
                .exec().getId();
        containers.add(created);
        // another agent on this host (another node ID), its state unknown to us
        TaskHandle foreign = track(driver(otherNode).start(loop("foreign")));
        // a container that is not Berth's at all
        String unlabelled = engine.createContainerCmd(BUSYBOX).withCmd("sh", "-c", "sleep 600")
                .withHostConfig(com.github.dockerjava.api.model.HostConfig.newHostConfig().withNetworkMode("none")).exec().getId();
        containers.add(unlabelled);
        String knownPid = inspect(id(known)).getState().getPidLong().toString();
        before.close(); // the agent dies; its containers keep running

        DockerDriver after = driver(node);
        assertThat(after.liveTasks()).extracting(h -> h.driverState().get(DockerDriver.STATE_CONTAINER_ID))
                .containsExactlyInAnyOrder(id(known), id(lost), created);

        Reconciler.Report report = new Reconciler(store, new DriverManager(List.of(after)), Clock.systemUTC()).reconcile();

        assertThat(report).isEqualTo(new Reconciler.Report(3, 1, 2, 0));
        assertThatThrownBy(() -> inspect(id(lost))).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> inspect(created)).isInstanceOf(NotFoundException.class);
        assertThat(inspect(id(foreign)).getState().getRunning()).isTrue();
        assertThat(inspect(unlabelled).getState().getStatus()).isEqualTo("created");
        assertThat(inspect(id(known)).getState().getRunning()).isTrue();
        assertThat(after.liveTasks()).extracting(h -> h.driverState().get(DockerDriver.STATE_CONTAINER_ID))
                .containsExactly(id(known));

        // the restore then reattaches the persisted handle: the same container, the same process
        TaskHandle recovered = after.recover(known);
        assertThat(recovered.driverState()).containsEntry(DockerDriver.STATE_CONTAINER_ID, id(known))
                .containsEntry("pid", knownPid);
        assertThat(after.waitTask(recovered)).isNotDone();
    }

    @Test
    void containersOfAStoppedAllocationAreRemoved() throws Exception {
        DockerDriver before = driver(node);
        InMemoryAllocStateStore store = new InMemoryAllocStateStore();
        TaskConfig t = loop("stopped");
        TaskHandle h = track(before.start(t));
        var spec = alloc(t.allocId(), "service", null, task("web", Map.of()));
        var stopped = new dev.berth.alloc.spec.AllocationSpec(spec.id(), spec.name(), spec.namespace(), spec.jobId(), spec.job(),
                spec.taskGroup(), "stop", 2L, null, spec.allocatedResources());
        store.putAlloc(new AllocRecord(stopped, ClientStatus.RUNNING, ""));
        store.putTaskState(t.allocId(), "web", dev.berth.alloc.task.TaskState.initial()
                .withState(dev.berth.alloc.task.TaskState.RUNNING, java.time.Instant.now()));
        store.putTaskLocalState(t.allocId(), "web", new TaskLocalState(h, java.util.Map.of(), null, false));
        before.close();

        DockerDriver after = driver(node);
        Reconciler.Report report = new Reconciler(store, new DriverManager(List.of(after)), Clock.systemUTC()).reconcile();

        assertThat(report.killed()).isEqualTo(1);
        assertThatThrownBy(() -> inspect(id(h))).isInstanceOf(NotFoundException.class);
        assertThat(store.taskStates(t.allocId()).get("web").dead()).isTrue();
    }

    @Test
    void aDisabledDriverListsNothing() {
        DockerDriver disabled = new DockerDriver(false, "never", ENGINE, node, Clock.systemUTC());
        drivers.add(disabled);
        assertThat(disabled.liveTasks()).isEmpty();
    }

    private DockerDriver driver(String nodeId) {
        DockerDriver d = new DockerDriver(true, "never", ENGINE, nodeId, Clock.systemUTC());
        drivers.add(d);
        return d;
    }

    private TaskHandle track(TaskHandle h) {
        containers.add(id(h));
        return h;
    }

    private static String id(TaskHandle h) {
        return h.driverState().get(DockerDriver.STATE_CONTAINER_ID);
    }

    private InspectContainerResponse inspect(String id) {
        return engine.inspectContainerCmd(id).exec();
    }

    private TaskConfig loop(String dirName) throws IOException {
        String allocId = UUID.randomUUID().toString();
        Path allocDir = Files.createDirectories(root.resolve(dirName).resolve(allocId));
        Path taskDir = Files.createDirectories(allocDir.resolve("web"));
        Path logs = Files.createDirectories(allocDir.resolve("alloc/logs"));
        return new TaskConfig(allocId + "/web", allocId, "web", "job1", "web", "default",
                Map.of("image", BUSYBOX, "command", "sh", "args", List.of("-c", "while :; do sleep 1; done")), Map.of(),
                allocDir, taskDir, logs.resolve("web.stdout.0"), logs.resolve("web.stderr.0"), 0, 32, 0, null);
    }
}
