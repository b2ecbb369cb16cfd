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
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.testcontainers.DockerClientFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

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

    @Test
    void dockerTaskStatsComeFromTheContainersCgroupThroughTheSharedCollector() throws Exception {
        String id = UUID.randomUUID().toString();
        // hold 64 MiB in a shell variable, then idle (a loop, not a final `sleep`, which ash would exec, dropping it)
        String task = """
                {"Name":"hog","Driver":"docker","Config":{"image":"berth-test/busybox:1","command":"sh",
                  "args":["-c","x=$(head -c 67108864 /dev/zero | tr '\\\\0' a); echo holding; while :; do sleep 1; done"]},
                 "Resources":{"CPU":100,"MemoryMB":256}}""";
        String alloc = """
                {"ID":"%s","Name":"s.app[0]","JobID":"s","AllocModifyIndex":1,"DesiredStatus":"run","TaskGroup":"app",
                 "Job":{"ID":"s","Name":"s","Type":"service","TaskGroups":[{"Name":"app","Count":1,"Tasks":[%s]}]}}"""
                .formatted(id, task);
        assertThat(send("PUT", "/v1/client/allocation/" + id, alloc).statusCode()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(send("GET", "/v1/client/fs/cat/" + id + "?path=alloc/logs/hog.stdout.0", null).body()).contains("holding"));
        DockerClient engine = DockerClientFactory.instance().client();
        String containerId = engine.listContainersCmd().withLabelFilter(java.util.Map.of(DockerDriver.LABEL_ALLOC_ID, id))
                .exec().getFirst().getId();
        try {
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                // measured with each sample: right after "holding" the shell may still hold its read buffer beside the
                // variable (twice the memory for a moment)
                long initPid = engine.inspectContainerCmd(containerId).exec().getState().getPidLong();
                long processRss = rssAnonOfProcessesIn(dev.berth.host.cgroup.HostCgroups.memoryCgroupOf(initPid));
                assertThat(processRss).isGreaterThanOrEqualTo(64L * 1024 * 1024);
                String body = send("GET", "/v1/client/allocation/" + id + "/stats", null).body();
                JsonNode taskUsage = JsonMapper.builder().build().readTree(body).path("Tasks").path("hog");
                assertThat(taskUsage.isObject()).as(body).isTrue();
                JsonNode memory = taskUsage.get("ResourceUsage").get("MemoryStats");
                // the cgroup list of this host's version (docs/stats.md), not the /proc fallback's ["RSS","Swap"], and no
                // per-pid entries
                assertThat(memory.get("Measured").toString()).isEqualTo(dev.berth.host.cgroup.HostCgroups.memoryMeasuredJson());
                assertThat(taskUsage.get("Pids").isNull()).isTrue();
                assertThat((double) memory.get("RSS").asLong()).isCloseTo((double) processRss, Percentage.withPercentage(10));
                assertThat(memory.get("Usage").asLong()).isGreaterThanOrEqualTo(memory.get("RSS").asLong());
                assertThat(memory.get("MaxUsage").asLong()).isGreaterThanOrEqualTo(memory.get("Usage").asLong());
                JsonNode cpu = taskUsage.get("ResourceUsage").get("CpuStats");
                assertThat(cpu.get("Measured").toString())
                        .isEqualTo("[\"System Mode\",\"User Mode\",\"Throttled Periods\",\"Throttled Time\",\"Percent\"]");
            });
            String scrape = send("GET", "/actuator/prometheus", null).body();
            String workingSet = scrape.lines().filter(line -> line.startsWith("berth_task_memory_working_set_bytes{")
                    && line.contains("alloc_id=\"" + id + "\"")).findFirst().orElseThrow();
            assertThat(Double.parseDouble(workingSet.substring(workingSet.lastIndexOf(' ') + 1)))
                    .isGreaterThanOrEqualTo(64L * 1024 * 1024 * 0.9); // the variable the shell holds
            assertThat(scrape).contains("berth_task_cpu_usage_seconds_total{alloc_id=\"" + id + "\"");
        } finally {
            send("DELETE", "/v1/client/allocation/" + id, null);
        }
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(engine.listContainersCmd().withShowAll(true)
                .withLabelFilter(java.util.Map.of(DockerDriver.LABEL_ALLOC_ID, id)).exec()).isEmpty());
    }

    /** Sums RssAnon over the processes in a memory cgroup, read from /proc: the cgroup's rss counts the same pages. */
    private static long rssAnonOfProcessesIn(java.nio.file.Path memoryCgroup) throws Exception {
        long total = 0;
        for (String pid : java.nio.file.Files.readAllLines(memoryCgroup.resolve("cgroup.procs"))) {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc", pid.trim(), "status"))) {
                if (line.startsWith("RssAnon:")) {
                    total += Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                }
            }
        }
        return total;
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(60))
                        .header("Content-Type", "application/json")
                        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
