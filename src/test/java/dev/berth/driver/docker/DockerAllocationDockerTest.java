package dev.berth.driver.docker;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.testcontainers.DockerClientFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A full agent with the docker driver enabled (never pulling) runs a docker task submitted through the allocation
 * API against the local engine: the container gets the task's limits and labels, its output reaches the alloc's log
 * files, and deleting the allocation removes it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "berth.data-dir=${java.io.tmpdir}/berth-docker-it-${random.uuid}",
        "berth.drivers.docker.enabled=true",
        "berth.drivers.docker.pull=never",
        "berth.acl.enabled=false",
        "server.address=127.0.0.1"
})
class DockerAllocationDockerTest {

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void dockerTaskRunsThroughTheAllocationApi() throws Exception {
        String id = UUID.randomUUID().toString();
        String task = """
                {"Name":"web","Driver":"docker","Config":{"image":"berth-test/busybox:1","command":"sh",
                  "args":["-c","echo hello-from-$NOMAD_TASK_NAME; while :; do sleep 1; done"]},
                 "Resources":{"CPU":200,"MemoryMB":48}}""";
        String alloc = """
                {"ID":"%s","Name":"d.app[0]","JobID":"d","AllocModifyIndex":1,"DesiredStatus":"run","TaskGroup":"app",
                 "Job":{"ID":"d","Name":"d","Type":"service","TaskGroups":[{"Name":"app","Count":1,"Tasks":[%s]}]}}"""
                .formatted(id, task);

        HttpResponse<String> put = send("PUT", "/v1/client/allocation/" + id, alloc);
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(send("GET", "/v1/allocation/" + id, null).body()).contains("\"ClientStatus\":\"running\""));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(send("GET", "/v1/client/fs/cat/" + id + "?path=alloc/logs/web.stdout.0", null).body())
                        .contains("hello-from-web"));
        DockerClient engine = DockerClientFactory.instance().client();
        List<Container> containers = engine.listContainersCmd().withShowAll(true)
                .withLabelFilter(java.util.Map.of(DockerDriver.LABEL_ALLOC_ID, id)).exec();
        assertThat(containers).hasSize(1);
        var inspect = engine.inspectContainerCmd(containers.getFirst().getId()).exec();
        assertThat(inspect.getName()).isEqualTo("/web-" + id);
        assertThat(inspect.getHostConfig().getMemory()).isEqualTo(48L * 1024 * 1024);
        assertThat(inspect.getHostConfig().getCpuShares()).isEqualTo(200);
        assertThat(inspect.getHostConfig().getNetworkMode()).isEqualTo("none");

        send("DELETE", "/v1/client/allocation/" + id, null);

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(engine.listContainersCmd().withShowAll(true)
                .withLabelFilter(java.util.Map.of(DockerDriver.LABEL_ALLOC_ID, id)).exec()).isEmpty());
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(60))
                        .header("Content-Type", "application/json")
                        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
