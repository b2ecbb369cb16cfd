package dev.berth.driver.docker;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.github.dockerjava.api.DockerClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.berth.support.ExecClient;
import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code alloc exec} into a docker task through the engine's exec API, over a real websocket of a full agent (the same
 * settings as {@link DockerAllocationDockerTest}, so both share one agent) against the local engine and the locally built
 * busybox image.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "berth.data-dir=${java.io.tmpdir}/berth-docker-it-${random.uuid}",
        "berth.drivers.docker.enabled=true",
        "berth.drivers.docker.pull=never",
        "berth.acl.enabled=false",
        "server.address=127.0.0.1"
})
class DockerExecDockerTest {

    static final Duration WAIT = Duration.ofSeconds(60);

    @LocalServerPort
    int port;

    private final DockerClient engine = DockerClientFactory.instance().client();
    private String alloc;

    @AfterEach
    void stop() throws Exception {
        if (alloc != null) {
            Http.send(port, "DELETE", "/v1/client/allocation/" + alloc, null);
        }
    }

    private String runningContainer() throws Exception {
        alloc = UUID.randomUUID().toString();
        String task = """
                {"Name":"web","Driver":"docker","Env":{"GREETING":"hi"},"Config":{"image":"berth-test/busybox:1","command":"sh",
                  "args":["-c","while :; do sleep 1; done"]},"Resources":{"CPU":100,"MemoryMB":48}}""";
        String body = """
                {"ID":"%s","Name":"x.app[0]","JobID":"x","AllocModifyIndex":1,"DesiredStatus":"run","TaskGroup":"app",
                 "Job":{"ID":"x","Name":"x","Type":"service","TaskGroups":[{"Name":"app","Count":1,"Tasks":[%s]}]}}"""
                .formatted(alloc, task);
        HttpResponse<String> put = Http.send(port, "PUT", "/v1/client/allocation/" + alloc, body);
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        await().atMost(WAIT).untilAsserted(() ->
                assertThat(Http.get(port, "/v1/allocation/" + alloc).body()).contains("\"ClientStatus\":\"running\""));
        return alloc;
    }

    private String containerId() {
        return engine.listContainersCmd().withLabelFilter(Map.of(DockerDriver.LABEL_ALLOC_ID, alloc)).exec().getFirst().getId();
    }

    @Test
    void execRunsInTheContainerWithOutputStdinAndExitCode() throws Exception {
        String id = runningContainer();
        try (ExecClient exec = ExecClient.open(port, id, "web",
                List.of("sh", "-c", "echo $GREETING-$NOMAD_TASK_NAME; hostname; echo oops >&2; exit 4"), false)) {
            assertThat(exec.exitCode(WAIT)).isEqualTo(4);
            assertThat(exec.output("stdout")).isEqualTo("hi-web\n" + containerId().substring(0, 12) + "\n");
            assertThat(exec.output("stderr")).isEqualTo("oops\n");
        }
        try (ExecClient exec = ExecClient.open(port, id, "web", List.of("cat"), false)) {
            exec.stdin("piped into a container\n");
            exec.closeStdin();
            assertThat(exec.exitCode(WAIT)).isZero();
            assertThat(exec.output("stdout")).isEqualTo("piped into a container\n");
        }
    }

    @Test
    void aTtySessionGetsTheEnginesTerminalAtTheRequestedSize() throws Exception {
        String id = runningContainer();
        try (ExecClient exec = ExecClient.open(port, id, "web", List.of("sh"), true)) {
            exec.ttySize(40, 120);
            exec.stdin("tty; stty size; exit 5\n");
            assertThat(exec.exitCode(WAIT)).isEqualTo(5);
            assertThat(exec.output("stdout")).containsPattern("/dev/pts/\\d+").contains("40 120");
        }
    }

    @Test
    void closingTheSocketEndsTheCommandInTheContainer() throws Exception {
        String id = runningContainer();
        try (ExecClient exec = ExecClient.open(port, id, "web", List.of("sh", "-c", "echo started; exec sleep 4242"), false)) {
            await().atMost(WAIT).until(() -> exec.output("stdout").equals("started\n"));
            assertThat(processes()).anyMatch(p -> p.contains("sleep 4242"));
        }
        await().atMost(WAIT).untilAsserted(() -> assertThat(processes()).noneMatch(p -> p.contains("sleep 4242")));
    }

    private List<String> processes() {
        return Arrays.stream(engine.topContainerCmd(containerId()).exec().getProcesses()).map(row -> String.join(" ", row)).toList();
    }
}
