package dev.berth.api;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.JsonNode;

import dev.berth.support.Http;
import dev.berth.support.TempDirs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Host volumes end to end: configured volumes in the node, a raw_exec task using one by path, admission refusing an
 * allocation whose volume the node lacks, and the scheduler failing a job's placement with Nomad's reason.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "berth.data-dir=${java.io.tmpdir}/berth-it-${random.uuid}",
        "berth.drivers.raw-exec.enabled=true",
        "berth.acl.enabled=false",
        "server.address=127.0.0.1"
})
class HostVolumeAgentTest {

    static Path shared;
    static Path certs;

    @DynamicPropertySource
    static void volumes(DynamicPropertyRegistry registry) throws Exception {
        Path dir = TempDirs.removedAtExit("berth-volumes");
        shared = Files.createDirectories(dir.resolve("shared"));
        Files.writeString(shared.resolve("hello.txt"), "from the host\n");
        certs = Files.createDirectories(dir.resolve("certs"));
        registry.add("berth.host-volumes.shared.path", shared::toString);
        registry.add("berth.host-volumes.certs.path", certs::toString);
        registry.add("berth.host-volumes.certs.read-only", () -> "true");
    }

    @Value("${local.server.port}")
    int port;

    @Test
    void theNodeOffersItsConfiguredHostVolumes() throws Exception {
        JsonNode volumes = Http.ok(port, "GET", "/v1/node/self", null).path("HostVolumes");
        assertThat(volumes.path("shared").toString())
                .isEqualTo("{\"Name\":\"shared\",\"Path\":\"" + shared + "\",\"ReadOnly\":false,\"ID\":\"\"}");
        assertThat(volumes.path("certs").path("ReadOnly").asBoolean()).isTrue();
    }

    @Test
    void aRawExecTaskUsesTheVolumeByPathUnderItsTaskDirectory() throws Exception {
        String id = UUID.randomUUID().toString();
        String script = "cat srv/data/hello.txt > srv/data/copy-" + id + ".txt";
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/client/allocation/" + id, alloc(id, "shared", false, "raw_exec", script));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(shared.resolve("copy-" + id + ".txt")));
        assertThat(shared.resolve("copy-" + id + ".txt")).hasContent("from the host");
        Http.send(port, "DELETE", "/v1/client/allocation/" + id, null);
    }

    @Test
    void anAllocationWhoseVolumeTheNodeLacksIsRefused() throws Exception {
        String id = UUID.randomUUID().toString();
        HttpResponse<String> missing = Http.send(port, "PUT", "/v1/client/allocation/" + id, alloc(id, "nope", false, "raw_exec", "true"));
        assertThat(missing.statusCode()).isEqualTo(409);
        assertThat(missing.body()).contains("missing compatible host volumes: volume \\\"v\\\" asks for host volume \\\"nope\\\"");
        HttpResponse<String> writable = Http.send(port, "PUT", "/v1/client/allocation/" + id, alloc(id, "certs", false, "raw_exec", "true"));
        assertThat(writable.statusCode()).isEqualTo(409);
        assertThat(writable.body()).contains("writable, which is read-only on this node");
        assertThat(Http.send(port, "GET", "/v1/allocation/" + id, null).statusCode()).isEqualTo(404);
    }

    @Test
    void aJobWhoseVolumeTheNodeLacksFailsPlacementWithNomadsReason() throws Exception {
        String jobId = "vol-" + UUID.randomUUID().toString().substring(0, 8);
        String body = """
                {"Job":{"ID":"%s","Name":"%s","Type":"batch","Datacenters":["dc1"],"TaskGroups":[{"Name":"g","Count":1,
                  "Volumes":{"v":{"Name":"v","Type":"host","Source":"nope","ReadOnly":false}},
                  "Tasks":[{"Name":"t","Driver":"raw_exec","Config":{"command":"/bin/true"},
                    "VolumeMounts":[{"Volume":"v","Destination":"/data"}],"Resources":{"CPU":20,"MemoryMB":16}}]}]}}"""
                .formatted(jobId, jobId);
        JsonNode reg = Http.ok(port, "PUT", "/v1/jobs", body);
        String eval = "/v1/evaluation/" + reg.path("EvalID").asString();
        await().atMost(Duration.ofSeconds(30)).until(() -> "failed".equals(Http.ok(port, "GET", eval, null).path("Status").asString()));
        assertThat(Http.ok(port, "GET", eval, null).path("FailedTGAllocs").path("g").path("ConstraintFiltered").toString())
                .isEqualTo("{\"missing compatible host volumes\":1}");
        assertThat(Http.ok(port, "GET", "/v1/job/" + jobId + "/allocations", null)).isEmpty();
        Http.send(port, "DELETE", "/v1/job/" + jobId + "?purge=true", null);
    }

    private static String alloc(String id, String source, boolean readOnly, String driver, String script) {
        return """
                {"ID":"%s","Name":"vol.g[0]","JobID":"vol","DesiredStatus":"run","TaskGroup":"g",
                 "Job":{"ID":"vol","Name":"vol","Type":"batch","TaskGroups":[{"Name":"g","Count":1,
                   "Volumes":{"v":{"Name":"v","Type":"host","Source":"%s","ReadOnly":%s}},
                   "Tasks":[{"Name":"t","Driver":"%s","Config":{"command":"/bin/sh","args":["-c","%s"]},
                     "VolumeMounts":[{"Volume":"v","Destination":"/srv/data"}],"Resources":{"CPU":20,"MemoryMB":16}}]}]}}"""
                .formatted(id, source, readOnly, driver, script);
    }
}
