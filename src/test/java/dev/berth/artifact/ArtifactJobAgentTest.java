package dev.berth.artifact;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

import com.sun.net.httpserver.HttpServer;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Artifacts through the agent's API: an HCL jobspec's {@code artifact} block runs (the fetched script is the task's
 * program, Nomad's events in the allocation), and a destination that leaves the allocation is a 400 naming it, for a
 * job and for a submitted allocation alike, with nothing stored.
 */
@AgentIntegrationTest
class ArtifactJobAgentTest {

    @LocalServerPort
    int port;

    final JsonMapper json = JsonMapper.builder().build();
    final String jobId = "art-" + UUID.randomUUID().toString().substring(0, 8);
    HttpServer server;

    @BeforeEach
    void serve() throws Exception {
        byte[] script = "echo \"fetched $1\"\n".getBytes(StandardCharsets.UTF_8);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/hello.sh", ex -> {
            ex.sendResponseHeaders(200, script.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(script);
            }
        });
        server.start();
    }

    @AfterEach
    void cleanUp() throws Exception {
        Http.send(port, "DELETE", "/v1/job/" + jobId + "?purge=true", null);
        server.stop(0);
    }

    @Test
    void anHclJobspecsArtifactIsFetchedAndRun() throws Exception {
        String hcl = """
                job "%s" {
                  type = "batch"
                  group "g" {
                    task "t" {
                      driver = "raw_exec"
                      config {
                        command = "/bin/sh"
                        args    = ["${NOMAD_TASK_DIR}/hello.sh", "${NOMAD_ALLOC_INDEX}"]
                      }
                      artifact {
                        source = "http://127.0.0.1:%d/hello.sh"
                      }
                      resources {
                        cpu    = 20
                        memory = 32
                      }
                    }
                  }
                }
                """.formatted(jobId, server.getAddress().getPort());
        HttpResponse<String> parsed = Http.send(port, "POST", "/v1/jobs/parse", json.writeValueAsString(Map.of("JobHCL", hcl)));
        assertThat(parsed.statusCode()).as(parsed.body()).isEqualTo(200);
        HttpResponse<String> put = Http.send(port, "PUT", "/v1/jobs", json.writeValueAsString(Map.of("Job", json.readTree(parsed.body()))));
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);

        List<String> events = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            events.clear();
            for (JsonNode a : json.readTree(Http.send(port, "GET", "/v1/job/" + jobId + "/allocations", null).body())) {
                a.path("TaskStates").path("t").path("Events").forEach(e -> events.add(e.path("Type").asString() + ": "
                        + e.path("DisplayMessage").asString()));
            }
            return events.stream().anyMatch(e -> e.startsWith("Terminated"));
        });
        assertThat(events).containsSubsequence("Downloading Artifacts: Client is downloading artifacts", "Started: Task started by client",
                "Terminated: Exit Code: 0");
        String alloc = json.readTree(Http.send(port, "GET", "/v1/job/" + jobId + "/allocations", null).body()).get(0).path("ID").asString();
        HttpResponse<String> log = Http.send(port, "GET", "/v1/client/fs/logs/" + alloc + "?task=t&type=stdout&plain=true&origin=start", null);
        assertThat(log.body()).isEqualTo("fetched 0\n");
    }

    @Test
    void aJobWhoseArtifactLeavesTheAllocationIsA400() throws Exception {
        String job = """
                {"Job":{"ID":"%s","Name":"%s","Type":"batch","TaskGroups":[{"Name":"app","Count":1,
                  "Tasks":[{"Name":"t","Driver":"raw_exec","Config":{"command":"/bin/true"},
                    "Artifacts":[{"GetterSource":"http://127.0.0.1/x","RelativeDest":"../../../etc"}]}]}]}}""".formatted(jobId, jobId);
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/jobs", job);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("Task group app validation failed: Task t validation failed: "
                + "Artifact 1 validation failed: destination escapes allocation directory");
        assertThat(Http.send(port, "GET", "/v1/job/" + jobId, null).statusCode()).isEqualTo(404);
    }

    @Test
    void anAllocationWhoseArtifactChecksumIsMalformedIsA400NamingTheField() throws Exception {
        String id = UUID.randomUUID().toString();
        String alloc = """
                {"ID":"%s","Name":"j.g[0]","JobID":"j","TaskGroup":"g","Job":{"ID":"j","Type":"batch","TaskGroups":[{"Name":"g",
                  "Tasks":[{"Name":"t","Driver":"raw_exec","Config":{"command":"/bin/true"},
                    "Artifacts":[{"GetterSource":"http://127.0.0.1/x","GetterOptions":{"checksum":"sha256:abcd"}}]}]}]}}""".formatted(id);
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/client/allocation/" + id, alloc);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("Job.TaskGroups[g].Tasks[t].Artifacts[0].GetterOptions.checksum")
                .contains("Artifact 1 validation failed: invalid sha256 checksum: abcd");
        assertThat(Http.send(port, "GET", "/v1/allocation/" + id, null).statusCode()).isEqualTo(404);
    }
}
