package dev.berth.restore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.HostConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.driver.docker.DockerDriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A real agent with the docker driver is SIGKILLed and started again on the same data dir: the container of its running
 * allocation is reattached (same container, same process), a container labelled with this node's ID that its state does
 * not account for (left by a crash between start and persisting the handle) is removed at start-up, and a container of
 * another node ID is left alone.
 */
class DockerAgentRestartDockerTest {

    private static final String BUSYBOX = "berth-test/busybox:1";

    @TempDir
    Path tmp;

    private final DockerClient engine = DockerClientFactory.instance().client();

    @Test
    void afterASigkillTheKnownContainerIsReattachedAndTheOrphanRemoved() throws Exception {
        String allocId = UUID.randomUUID().toString();
        String orphan = null;
        String foreign = null;
        try (AgentProcess agent = new AgentProcess(tmp.resolve("data"))) {
            agent.extraArgs.addAll(List.of("--berth.drivers.docker.enabled=true", "--berth.drivers.docker.pull=never"));
            agent.start();
            String node = JsonMapper.builder().build().readTree(agent.send("GET", "/v1/node/self", null).body()).path("ID").asString();
            assertThat(node).isNotBlank();
            String task = """
                    {"Name":"web","Driver":"docker","KillTimeout":1000000000,"Config":{"image":"%s","command":"sh",
                      "args":["-c","while :; do sleep 1; done"]},"Resources":{"CPU":20,"MemoryMB":16}}""".formatted(BUSYBOX);
            agent.put(allocId, AgentRestartTest.alloc(allocId, "service", task, null));
            await().atMost(Duration.ofSeconds(60)).until(() -> "running".equals(agent.alloc(allocId).path("ClientStatus").asString()));
            List<Container> mine = containersOf(allocId);
            assertThat(mine).hasSize(1);
            String known = mine.getFirst().getId();
            assertThat(engine.inspectContainerCmd(known).exec().getConfig().getLabels()).containsEntry(DockerDriver.LABEL_NODE_ID, node);
            Long knownPid = engine.inspectContainerCmd(known).exec().getState().getPidLong();

            // what a SIGKILL between starting a container and persisting its handle leaves behind
            orphan = runLabelled(node);
            // another agent on this host
            foreign = runLabelled("other-" + UUID.randomUUID());

            agent.kill();
            agent.start();

            String orphanId = orphan;
            assertThatThrownBy(() -> engine.inspectContainerCmd(orphanId).exec()).isInstanceOf(NotFoundException.class);
            assertThat(engine.inspectContainerCmd(foreign).exec().getState().getRunning()).isTrue();
            await().atMost(Duration.ofSeconds(60)).until(() -> "running".equals(agent.alloc(allocId).path("ClientStatus").asString()));
            InspectContainerResponse after = engine.inspectContainerCmd(known).exec();
            assertThat(after.getState().getRunning()).isTrue();
            assertThat(after.getState().getPidLong()).isEqualTo(knownPid);
            assertThat(containersOf(allocId)).extracting(Container::getId).containsExactly(known);
            assertThat(Files.readString(agent.log())).contains("killed a task no allocation accounts for: driver=docker")
                    .contains("reconciled task processes");

            agent.send("DELETE", "/v1/client/allocation/" + allocId, null);
            await().atMost(Duration.ofSeconds(60)).until(() -> containersOf(allocId).isEmpty());
        } finally {
            for (String id : new String[] {orphan, foreign}) {
                removeQuietly(id);
            }
            containersOf(allocId).forEach(c -> removeQuietly(c.getId()));
        }
    }

    private String runLabelled(String node) {
        String id = engine.createContainerCmd(BUSYBOX).withCmd("sh", "-c", "while :; do sleep 1; done")
                .withLabels(Map.of(DockerDriver.LABEL_NODE_ID, node, DockerDriver.LABEL_ALLOC_ID, UUID.randomUUID().toString(),
                        DockerDriver.LABEL_TASK, "web"))
                .withHostConfig(HostConfig.newHostConfig().withNetworkMode("none")).exec().getId();
        engine.startContainerCmd(id).exec();
        return id;
    }

    private List<Container> containersOf(String allocId) {
        return engine.listContainersCmd().withShowAll(true).withLabelFilter(Map.of(DockerDriver.LABEL_ALLOC_ID, allocId)).exec();
    }

    private void removeQuietly(String id) {
        if (id == null) {
            return;
        }
        try {
            engine.removeContainerCmd(id).withForce(true).exec();
        } catch (NotFoundException e) {
            // gone already
        }
    }
}
