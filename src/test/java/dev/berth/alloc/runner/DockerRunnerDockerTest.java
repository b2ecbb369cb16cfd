package dev.berth.alloc.runner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;

import dev.berth.alloc.spec.ResourcesSpec;
import dev.berth.alloc.spec.RestartPolicySpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.config.Sleeper;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskState;
import dev.berth.driver.DriverException;
import dev.berth.driver.HealthState;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.docker.DockerDriver;
import dev.berth.driver.docker.DockerEngineProperties;
import dev.berth.driver.docker.EngineProxy;

import static dev.berth.alloc.runner.RunnerHarness.alloc;
import static dev.berth.alloc.runner.RunnerHarness.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The docker driver as an operator meets it, through a real task runner and the real engine: an engine that is down when
 * tasks start, an image that is missing with pulling disabled, a container removed behind the agent's back. The engine
 * "goes down" through an {@link EngineProxy} (its socket disappears), so the shared engine keeps running.
 */
class DockerRunnerDockerTest {

    private static final String BUSYBOX = "berth-test/busybox:1";
    private static final String LOOP = "while :; do sleep 1; done";

    @TempDir
    Path dir;

    private final DockerClient engine = DockerClientFactory.instance().client();
    private final String node = "node-" + UUID.randomUUID();
    private RunnerHarness harness;
    private DockerDriver driver;
    private EngineProxy proxy;

    @AfterEach
    void tearDown() throws Exception {
        if (proxy != null) {
            proxy.up(); // the runners' destroy needs the engine
        }
        if (harness != null) {
            harness.close();
        }
        if (driver != null) {
            driver.close();
        }
        if (proxy != null) {
            proxy.close();
            Files.deleteIfExists(Path.of(proxy.host().substring("unix://".length())).getParent());
        }
        for (Container c : engine.listContainersCmd().withShowAll(true).withLabelFilter(Map.of(DockerDriver.LABEL_NODE_ID, node)).exec()) {
            engine.removeContainerCmd(c.getId()).withForce(true).exec();
        }
    }

    private void runWith(String host) {
        runWith(host, Duration.ofSeconds(30));
    }

    private void runWith(String host, Duration callTimeout) {
        driver = new DockerDriver(true, "never", new DockerEngineProperties(host, Duration.ofSeconds(2), Duration.ofSeconds(1), callTimeout),
                node, Clock.systemUTC());
        harness = new RunnerHarness(dir.resolve("allocs"), driver, Sleeper.system());
    }

    @Test
    void engineDownAtStartFailsTheTaskClearlyAndTheTaskRunsOnceTheEngineIsBack() throws Exception {
        // unix socket paths must stay short (108 bytes)
        Path sockDir = Files.createTempDirectory(Path.of("/tmp"), "bdl");
        proxy = new EngineProxy(sockDir.resolve("e.sock"), Path.of("/var/run/docker.sock"));
        runWith(proxy.host());
        assertThat(driver.fingerprint().health()).isEqualTo(HealthState.UNHEALTHY);
        // a restored task cannot be reattached either: a recoverable error (the restart policy decides) that says why
        assertThatThrownBy(() -> driver.recover(new TaskHandle(DockerDriver.NAME, "a/web", Instant.now(), Map.of("container_id", "c0ffee"))))
                .isInstanceOf(DriverException.class)
                .hasMessageStartingWith("failed to inspect container c0ffee: Docker daemon not reachable at " + proxy.host())
                .satisfies(e -> assertThat(((DriverException) e).recoverable()).isTrue());

        RestartPolicySpec policy = new RestartPolicySpec(100, Duration.ofMinutes(30).toNanos(), Duration.ofMillis(300).toNanos(), "fail");
        AllocRunner r = harness.runner(alloc("e-" + UUID.randomUUID(), "service", policy, docker("web", BUSYBOX, LOOP)));
        r.start();

        await().atMost(Duration.ofSeconds(30)).until(() -> types(r.taskStates().get("web")).contains(TaskEvent.DRIVER_FAILURE));
        TaskEvent failure = r.taskStates().get("web").events().stream().filter(e -> e.type().equals(TaskEvent.DRIVER_FAILURE))
                .findFirst().orElseThrow();
        assertThat(failure.details().get("driver_error"))
                .startsWith("failed to inspect image " + BUSYBOX + ": Docker daemon not reachable at " + proxy.host());
        assertThat(types(r.taskStates().get("web"))).contains(TaskEvent.RESTARTING).doesNotContain(TaskEvent.NOT_RESTARTING);

        proxy.up();
        await().atMost(Duration.ofSeconds(30)).until(() -> driver.fingerprint().health() == HealthState.HEALTHY);
        await().atMost(Duration.ofSeconds(30)).until(() -> r.taskStates().get("web").running());
        List<Container> running = containers(r);
        assertThat(running).hasSize(1);
        assertThat(running.getFirst().getState()).isEqualTo("running");
    }

    @Test
    void aWedgedEngineFailsTheStartWithinTheCallTimeoutAndTheTaskRunsOnceItAnswersAgain() throws Exception {
        Path sockDir = Files.createTempDirectory(Path.of("/tmp"), "bdl");
        proxy = new EngineProxy(sockDir.resolve("e.sock"), Path.of("/var/run/docker.sock"));
        proxy.wedge();
        runWith(proxy.host(), Duration.ofSeconds(1));
        long begin = System.nanoTime();
        assertThat(driver.fingerprint().health()).isEqualTo(HealthState.UNHEALTHY);
        assertThat((System.nanoTime() - begin) / 1_000_000).as("the ping to a wedged engine is bounded").isLessThan(5_000L);

        RestartPolicySpec policy = new RestartPolicySpec(100, Duration.ofMinutes(30).toNanos(), Duration.ofMillis(300).toNanos(), "fail");
        AllocRunner r = harness.runner(alloc("w-" + UUID.randomUUID(), "service", policy, docker("web", BUSYBOX, LOOP)));
        r.start();

        await().atMost(Duration.ofSeconds(30)).until(() -> types(r.taskStates().get("web")).contains(TaskEvent.DRIVER_FAILURE));
        TaskEvent failure = r.taskStates().get("web").events().stream().filter(e -> e.type().equals(TaskEvent.DRIVER_FAILURE))
                .findFirst().orElseThrow();
        assertThat(failure.details().get("driver_error"))
                .startsWith("failed to inspect image " + BUSYBOX + ": Docker daemon at " + proxy.host() + " did not answer in time");

        proxy.up();
        await().atMost(Duration.ofSeconds(30)).until(() -> r.taskStates().get("web").running());
        assertThat(containers(r)).hasSize(1);
    }

    @Test
    void aMissingImageWithPullingDisabledFailsTheTaskWithoutRestartsNamingImageAndSetting() throws Exception {
        runWith("unix:///var/run/docker.sock");
        String image = "berth-test/not-here:" + UUID.randomUUID().toString().substring(0, 8);
        AllocRunner r = harness.runner(alloc("m-" + UUID.randomUUID(), "service", null, docker("web", image, LOOP)));
        r.start();

        await().atMost(Duration.ofSeconds(30)).until(() -> r.taskStates().get("web").dead());
        TaskState web = r.taskStates().get("web");
        assertThat(types(web)).containsSubsequence(TaskEvent.DRIVER_FAILURE, TaskEvent.NOT_RESTARTING).doesNotContain(TaskEvent.STARTED);
        assertThat(web.failed()).isTrue();
        TaskEvent failure = web.events().stream().filter(e -> e.type().equals(TaskEvent.DRIVER_FAILURE)).findFirst().orElseThrow();
        assertThat(failure.details().get("driver_error"))
                .contains("Failed to find docker image \"" + image + "\"")
                .contains("berth.drivers.docker.pull = never");
        assertThat(r.record().clientStatus()).isEqualTo(ClientStatus.FAILED);
    }

    @Test
    void aContainerRemovedBehindOurBackEndsTheTaskAndTheRestartPolicyStartsANewOne() throws Exception {
        runWith("unix:///var/run/docker.sock");
        RestartPolicySpec policy = new RestartPolicySpec(2, Duration.ofMinutes(30).toNanos(), Duration.ofMillis(200).toNanos(), "fail");
        AllocRunner r = harness.runner(alloc("r-" + UUID.randomUUID(), "batch", policy, docker("web", BUSYBOX, LOOP)));
        r.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> r.taskStates().get("web").running() && containers(r).size() == 1);
        String first = containers(r).getFirst().getId();

        engine.removeContainerCmd(first).withForce(true).exec();

        await().atMost(Duration.ofSeconds(30)).until(() -> types(r.taskStates().get("web"))
                .stream().filter(TaskEvent.STARTED::equals).count() == 2 && r.taskStates().get("web").running());
        TaskState web = r.taskStates().get("web");
        assertThat(types(web)).containsSubsequence(TaskEvent.STARTED, TaskEvent.TERMINATED, TaskEvent.RESTARTING, TaskEvent.STARTED);
        TaskEvent terminated = web.events().stream().filter(e -> e.type().equals(TaskEvent.TERMINATED)).findFirst().orElseThrow();
        assertThat(terminated.details()).containsEntry("exit_code", "137")
                .hasEntrySatisfying("exit_message", m -> assertThat(m).contains("removed outside of Berth"));
        assertThat(web.restarts()).isEqualTo(1);
        assertThat(containers(r)).extracting(Container::getId).hasSize(1).doesNotContain(first);
    }

    private List<Container> containers(AllocRunner r) {
        return engine.listContainersCmd().withShowAll(true)
                .withLabelFilter(Map.of(DockerDriver.LABEL_NODE_ID, node, DockerDriver.LABEL_ALLOC_ID, r.record().spec().id())).exec();
    }

    private static TaskSpec docker(String name, String image, String script) {
        return new TaskSpec(name, DockerDriver.NAME, Map.of("image", image, "command", "sh", "args", List.of("-c", script)), null,
                new ResourcesSpec(100, 32, null, null), null, Duration.ofSeconds(2).toNanos(), null, null, null, null, null);
    }

}
