package dev.berth.service;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Services through the job API: an HCL jobspec's {@code service}/{@code check}/{@code check_restart} blocks parse to
 * Nomad's JSON, the placed allocation registers and probes them; a job with a bad check is a 400 that names it.
 */
@AgentIntegrationTest
class JobServicesAgentTest {

    @LocalServerPort
    int port;

    final JsonMapper json = JsonMapper.builder().build();
    final String jobId = "svc-" + UUID.randomUUID().toString().substring(0, 8);

    @AfterEach
    void cleanUp() throws Exception {
        Http.send(port, "DELETE", "/v1/job/" + jobId + "?purge=true", null);
    }

    @Test
    void anHclJobspecsServiceIsRegisteredAndChecked() throws Exception {
        String hcl = """
                job "%s" {
                  group "app" {
                    network {
                      port "http" {}
                    }
                    task "server" {
                      driver = "raw_exec"
                      config {
                        command = "/bin/sh"
                        args    = ["-c", "echo ok > \\"$NOMAD_TASK_DIR/index.html\\"; exec busybox httpd -f -p 127.0.0.1:$1 -h \\"$NOMAD_TASK_DIR\\"", "sh", "${NOMAD_PORT_http}"]
                      }
                      resources {
                        cpu    = 20
                        memory = 32
                      }
                      service {
                        name     = "%s-web"
                        port     = "http"
                        provider = "nomad"
                        tags     = ["hcl"]
                        check {
                          name     = "index"
                          type     = "http"
                          path     = "/index.html"
                          method   = "GET"
                          interval = "1s"
                          timeout  = "2s"
                          header {
                            X-Check = ["berth"]
                          }
                          check_restart {
                            limit = 3
                            grace = "30s"
                          }
                        }
                      }
                    }
                  }
                }
                """.formatted(jobId, jobId);
        HttpResponse<String> parsedResponse = Http.send(port, "POST", "/v1/jobs/parse", json.writeValueAsString(Map.of("JobHCL", hcl)));
        assertThat(parsedResponse.statusCode()).as(parsedResponse.body()).isEqualTo(200);
        JsonNode parsed = json.readTree(parsedResponse.body());
        JsonNode check = parsed.path("TaskGroups").get(0).path("Tasks").get(0).path("Services").get(0).path("Checks").get(0);
        assertThat(check.path("Interval").asLong()).isEqualTo(1_000_000_000L);
        assertThat(check.path("Timeout").asLong()).isEqualTo(2_000_000_000L);
        assertThat(check.path("Header").path("X-Check").toString()).isEqualTo("[\"berth\"]");
        assertThat(check.path("CheckRestart").path("Limit").asInt()).isEqualTo(3);
        assertThat(check.path("CheckRestart").path("Grace").asLong()).isEqualTo(30_000_000_000L);

        HttpResponse<String> put = Http.send(port, "PUT", "/v1/jobs", json.writeValueAsString(Map.of("Job", parsed)));
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(90)).until(() -> {
            JsonNode regs = json.readTree(Http.send(port, "GET", "/v1/service/" + jobId + "-web", null).body());
            return regs.size() == 1 && "success".equals(regs.get(0).path("Health").asString());
        });
        JsonNode reg = json.readTree(Http.send(port, "GET", "/v1/service/" + jobId + "-web", null).body()).get(0);
        assertThat(reg.path("JobID").asString()).isEqualTo(jobId);
        assertThat(reg.path("Tags").toString()).isEqualTo("[\"hcl\"]");
        JsonNode results = json.readTree(Http.send(port, "GET", "/v1/client/allocation/" + reg.path("AllocID").asString() + "/checks", null).body());
        assertThat(results.properties()).singleElement().satisfies(e -> {
            assertThat(e.getValue().path("Check").asString()).isEqualTo("index");
            assertThat(e.getValue().path("Output").asString()).isEqualTo("nomad: http ok");
        });
    }

    @Test
    void aJobWithABadCheckIsA400() throws Exception {
        String job = """
                {"Job":{"ID":"%s","Name":"%s","Type":"service","TaskGroups":[{"Name":"app","Count":1,
                  "Tasks":[{"Name":"t","Driver":"raw_exec","Config":{"command":"/bin/true"},
                    "Services":[{"Name":"s","Provider":"nomad","Checks":[{"Name":"c","Type":"http","Path":"http://elsewhere/x",
                      "PortLabel":"80","Interval":1000000000,"Timeout":1000000000}]}]}]}]}}""".formatted(jobId, jobId);
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/jobs", job);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("Task group app validation failed: Job.TaskGroups[app].Tasks[t].Services[s].Checks[c].Path: "
                + "http type must have relative http path");
        assertThat(Http.send(port, "GET", "/v1/job/" + jobId, null).statusCode()).isEqualTo(404);
    }
}
