package dev.berth.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.Http;

/**
 * Templates end to end with a real raw_exec task: the task waits for the variable its template reads (Nomad's
 * {@code Template} "Missing: …" event), starts with the rendered file and the {@code env} template's variable, and a
 * change of the variable re-renders both and restarts the task ({@code Restart Signaled}, "Template with change_mode
 * restart re-rendered").
 */
@AgentIntegrationTest
class TemplateJobAgentTest {

    @LocalServerPort
    int port;

    final JsonMapper json = JsonMapper.builder().build();
    final String jobId = "tmpl-" + UUID.randomUUID().toString().substring(0, 8);

    @AfterEach
    void cleanUp() throws Exception {
        Http.send(port, "DELETE", "/v1/job/" + jobId + "?purge=true", null);
        Http.send(port, "DELETE", "/v1/var/nomad/jobs/" + jobId, null);
    }

    @Test
    void aTemplateWaitsForItsVariableRendersFileAndEnvAndRestartsTheTaskWhenTheVariableChanges() throws Exception {
        String hcl = """
                job "%1$s" {
                  group "g" {
                    task "t" {
                      driver = "raw_exec"
                      config {
                        command = "/bin/sh"
                        args    = ["-c", "cat local/app.conf; echo \\"env=$APP_PASSWORD\\"; exec sleep 600"]
                      }
                      template {
                        data        = <<EOT
                task={{ env "NOMAD_TASK_NAME" }} password={{ with nomadVar "nomad/jobs/%1$s" }}{{ .password }}{{ end }}
                EOT
                        destination = "local/app.conf"
                        perms       = "0600"
                        splay       = "0s"
                      }
                      template {
                        data        = "APP_PASSWORD={{ (nomadVar \\"nomad/jobs/%1$s\\").password }}"
                        destination = "local/app.env"
                        env         = true
                        splay       = "0s"
                      }
                      resources {
                        cpu    = 20
                        memory = 32
                      }
                    }
                  }
                }
                """.formatted(jobId);
        HttpResponse<String> parsed = Http.send(port, "POST", "/v1/jobs/parse", json.writeValueAsString(Map.of("JobHCL", hcl)));
        assertThat(parsed.statusCode()).as(parsed.body()).isEqualTo(200);
        HttpResponse<String> put = Http.send(port, "PUT", "/v1/jobs", json.writeValueAsString(Map.of("Job", json.readTree(parsed.body()))));
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);

        await().atMost(Duration.ofSeconds(60)).until(() -> events().contains(
                "Template: Missing: nomad.var.block(nomad/jobs/" + jobId + "@default.global)"));
        assertThat(events()).noneMatch(e -> e.startsWith("Started"));

        setPassword("one");
        await().atMost(Duration.ofSeconds(60)).until(() -> stdout().contains("env=one"));
        assertThat(stdout()).isEqualTo("task=t password=one\nenv=one\n");
        assertThat(cat("t/local/app.conf")).isEqualTo("task=t password=one\n");

        setPassword("two");
        await().atMost(Duration.ofSeconds(60)).until(() -> stdout().contains("env=two"));
        assertThat(cat("t/local/app.conf")).isEqualTo("task=t password=two\n");
        assertThat(stdout()).endsWith("task=t password=two\nenv=two\n");
        assertThat(events()).containsSubsequence("Started: Task started by client",
                "Restart Signaled: Template with change_mode restart re-rendered", "Started: Task started by client");
    }

    private void setPassword(String password) throws Exception {
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/var/nomad/jobs/" + jobId,
                json.writeValueAsString(Map.of("Namespace", "default", "Items", Map.of("password", password))));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    private String allocId() throws Exception {
        JsonNode allocs = json.readTree(Http.send(port, "GET", "/v1/job/" + jobId + "/allocations", null).body());
        return allocs.isEmpty() ? null : allocs.get(0).path("ID").asString();
    }

    private List<String> events() throws Exception {
        List<String> events = new ArrayList<>();
        for (JsonNode a : json.readTree(Http.send(port, "GET", "/v1/job/" + jobId + "/allocations", null).body())) {
            a.path("TaskStates").path("t").path("Events").forEach(e -> events.add(e.path("Type").asString() + ": "
                    + e.path("DisplayMessage").asString()));
        }
        return events;
    }

    private String stdout() throws Exception {
        String alloc = allocId();
        return alloc == null ? "" : Http.send(port, "GET", "/v1/client/fs/logs/" + alloc + "?task=t&type=stdout&plain=true&origin=start", null).body();
    }

    private String cat(String path) throws Exception {
        return Http.send(port, "GET", "/v1/client/fs/cat/" + allocId() + "?path=" + path, null).body();
    }
}
