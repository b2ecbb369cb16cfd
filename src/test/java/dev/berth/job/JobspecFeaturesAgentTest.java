package dev.berth.job;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.sun.net.httpserver.HttpServer;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.support.Http;
import dev.berth.support.TempDirs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One jobspec as Nomad users write it, run end to end by real raw_exec and exec tasks: an {@code artifact} fetched over
 * HTTP from a server on loopback is the program each task runs; two {@code template}s render a Nomad variable into a
 * file and into the task's environment; a host volume (a dynamic one, made by the {@code mkdir} plugin) is mounted
 * where both tasks write what they saw. A change of the variable re-renders the templates and restarts both tasks,
 * with Nomad's task events in order.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "berth.data-dir=${java.io.tmpdir}/berth-it-${random.uuid}",
        "berth.drivers.raw-exec.enabled=true",
        "berth.drivers.exec.enabled=true",
        "berth.acl.enabled=false",
        "server.address=127.0.0.1"
})
class JobspecFeaturesAgentTest {

    /** The artifact: what each task runs. It records the rendered file and the rendered environment in the volume. */
    private static final String TOOL = """
            { cat local/app.conf; echo "env=$GREETING"; } > "srv/data/$1.txt"
            exec sleep 600
            """;

    @DynamicPropertySource
    static void volumes(DynamicPropertyRegistry registry) throws Exception {
        Path dir = TempDirs.removedAtExit("berth-jobspec-features");
        registry.add("berth.host-volumes-dir", () -> dir.resolve("volumes").toString());
    }

    @Value("${local.server.port}")
    int port;

    final JsonMapper json = JsonMapper.builder().build();
    final String jobId = "features-" + UUID.randomUUID().toString().substring(0, 8);
    HttpServer server;
    String volumeId;

    @BeforeEach
    void serveTheArtifact() throws Exception {
        byte[] tool = TOOL.getBytes(StandardCharsets.UTF_8);
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/tool.sh", ex -> {
            ex.sendResponseHeaders(200, tool.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(tool);
            }
        });
        server.start();
    }

    @AfterEach
    void cleanUp() throws Exception {
        Http.send(port, "DELETE", "/v1/job/" + jobId + "?purge=true", null);
        Http.send(port, "DELETE", "/v1/var/nomad/jobs/" + jobId, null);
        if (volumeId != null) {
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                HttpResponse<String> deleted = Http.send(port, "DELETE", "/v1/volume/host/" + volumeId, null);
                assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
            });
        }
        server.stop(0);
    }

    @Test
    void artifactsTemplatesVariablesAndAHostVolumeRunAsWritten() throws Exception {
        JsonNode volume = Http.ok(port, "PUT", "/v1/volume/host/create", """
                {"Volume":{"Name":"%s","PluginID":"mkdir","Parameters":{"mode":"0777"}}}""".formatted(jobId)).path("Volume");
        volumeId = volume.path("ID").asString();
        Path data = Path.of(volume.path("HostPath").asString());
        setGreeting("hello");

        register(jobspec());

        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
            assertThat(data.resolve("raw.txt")).hasContent("greeting=hello\nenv=hello\n");
            assertThat(data.resolve("iso.txt")).hasContent("greeting=hello\nenv=hello\n");
        });

        Files.delete(data.resolve("raw.txt"));
        Files.delete(data.resolve("iso.txt"));
        setGreeting("again");
        await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
            assertThat(data.resolve("raw.txt")).hasContent("greeting=again\nenv=again\n");
            assertThat(data.resolve("iso.txt")).hasContent("greeting=again\nenv=again\n");
        });
        for (String task : List.of("raw", "iso")) {
            assertThat(events(task)).as(task).containsSubsequence("Downloading Artifacts", "Started", "Restart Signaled", "Started");
        }
    }

    private String jobspec() {
        return """
                job "%1$s" {
                  group "g" {
                    volume "data" {
                      type   = "host"
                      source = "%1$s"
                    }
                    task "raw" {
                      driver = "raw_exec"
                      %2$s
                    }
                    task "iso" {
                      driver = "exec"
                      %2$s
                    }
                  }
                }
                """.formatted(jobId, taskBody());
    }

    /** What both tasks share but the driver: the artifact they run, their templates and the volume's mount. */
    private String taskBody() {
        return """
                config {
                        command = "/bin/sh"
                        args    = ["local/tool.sh", "${NOMAD_TASK_NAME}"]
                      }
                      artifact {
                        source = "http://127.0.0.1:%2$d/tool.sh"
                      }
                      template {
                        data        = "greeting={{ with nomadVar \\"nomad/jobs/%1$s\\" }}{{ .greeting }}{{ end }}\\n"
                        destination = "local/app.conf"
                        splay       = "0s"
                      }
                      template {
                        data        = "GREETING={{ (nomadVar \\"nomad/jobs/%1$s\\").greeting }}"
                        destination = "local/app.env"
                        env         = true
                        splay       = "0s"
                      }
                      volume_mount {
                        volume      = "data"
                        destination = "/srv/data"
                      }
                      resources {
                        cpu    = 20
                        memory = 32
                      }""".formatted(jobId, server.getAddress().getPort());
    }

    private void register(String hcl) throws Exception {
        HttpResponse<String> parsed = Http.send(port, "POST", "/v1/jobs/parse", json.writeValueAsString(Map.of("JobHCL", hcl)));
        assertThat(parsed.statusCode()).as(parsed.body()).isEqualTo(200);
        HttpResponse<String> put = Http.send(port, "PUT", "/v1/jobs", json.writeValueAsString(Map.of("Job", json.readTree(parsed.body()))));
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
    }

    private void setGreeting(String greeting) throws Exception {
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/var/nomad/jobs/" + jobId,
                json.writeValueAsString(Map.of("Namespace", "default", "Items", Map.of("greeting", greeting))));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    private List<String> events(String task) throws Exception {
        List<String> types = new ArrayList<>();
        for (JsonNode a : Http.ok(port, "GET", "/v1/job/" + jobId + "/allocations", null)) {
            a.path("TaskStates").path(task).path("Events").forEach(e -> types.add(e.path("Type").asString()));
        }
        return types;
    }
}
