package dev.berth.job;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.alloc.AllocManager;
import dev.berth.events.ChangeFeed;
import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Deployments against a running agent, with mock driver tasks (a scriptable driver: this is not a driver test): an
 * update whose new version fails its service check is reverted to the stable version, one allocation at a time; a
 * canary is promoted by hand; a deployment read back after a restart of the scheduler continues.
 */
@AgentIntegrationTest
class DeploymentAgentTest {

    @LocalServerPort
    int port;

    @Autowired
    JobStore store;
    @Autowired
    ChangeFeed feed;
    @Autowired
    AllocManager allocs;
    @Autowired
    dev.berth.fingerprint.NodeRegistry nodes;

    final JsonMapper json = JsonMapper.builder().build();
    String jobId;

    @BeforeEach
    void id() {
        jobId = "dep-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterEach
    void cleanUp() throws Exception {
        Http.send(port, "DELETE", "/v1/job/" + jobId + "?purge=true", null);
    }

    /** A service job of {@code count} mock tasks; {@code marker} changes what the task runs (a destructive change). */
    String job(int count, String marker, String update, String services) {
        return """
                {"Job":{"ID":"%s","Type":"service","Datacenters":["dc1"],"Update":{%s},
                  "TaskGroups":[{"Name":"app","Count":%d,"Networks":[{"DynamicPorts":[{"Label":"http"}]}],%s
                    "RestartPolicy":{"Attempts":0,"Mode":"fail"},
                    "Tasks":[{"Name":"server","Driver":"mock_driver","Config":{"run_for":"10m","stdout_string":"%s"},
                      "Resources":{"CPU":20,"MemoryMB":16}}]}]}}"""
                .formatted(jobId, update, count, services, marker);
    }

    JsonNode get(String path) throws Exception {
        return Http.ok(port, "GET", path, null);
    }

    JsonNode send(String method, String path, String body) throws Exception {
        return Http.ok(port, method, path, body);
    }

    JsonNode latestDeployment() throws Exception {
        return get("/v1/job/" + jobId + "/deployment");
    }

    void awaitDeployment(long version, String status) {
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            JsonNode d = latestDeployment();
            assertThat(d.path("JobVersion").asLong()).as("deployment %s", d).isEqualTo(version);
            assertThat(d.path("Status").asString()).as("deployment %s", d).isEqualTo(status);
        });
    }

    /** Live (desired run, not terminal) allocations of the job: name → job version. */
    List<String> live() throws Exception {
        List<String> out = new ArrayList<>();
        for (JsonNode a : get("/v1/job/" + jobId + "/allocations")) {
            String s = a.path("ClientStatus").asString();
            if ("run".equals(a.path("DesiredStatus").asString()) && !"complete".equals(s) && !"failed".equals(s)) {
                out.add(a.path("Name").asString() + "@v" + a.path("JobVersion").asLong());
            }
        }
        return out;
    }

    @Test
    void aNewVersionWhoseCheckFailsIsRevertedToTheStableVersionOneAllocationAtATime() throws Exception {
        String update = "\"MaxParallel\":1,\"MinHealthyTime\":0,\"HealthyDeadline\":3000000000,\"AutoRevert\":true";
        send("PUT", "/v1/jobs", job(2, "v0", update, ""));
        awaitDeployment(0, "successful");
        assertThat(get("/v1/job/" + jobId).path("Stable").asBoolean()).isTrue();
        JsonNode first = get("/v1/job/" + jobId + "/allocations").get(0);
        assertThat(first.path("DeploymentStatus").path("Healthy").asBoolean()).isTrue();

        // v1: a tcp check on a port nobody listens on; its healthy deadline passes, the deployment fails and reverts
        String failing = "\"Services\":[{\"Name\":\"web\",\"Provider\":\"nomad\",\"PortLabel\":\"http\",\"Checks\":[{\"Name\":\"alive\","
                + "\"Type\":\"tcp\",\"Interval\":1000000000,\"Timeout\":1000000000}]}],";
        send("PUT", "/v1/jobs", job(2, "v1", update, failing));
        List<Long> v1Seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            List<String> now = live();
            v1Seen.add(now.stream().filter(n -> n.endsWith("@v1")).count());
            JsonNode failed = get("/v1/job/" + jobId + "/deployments").findValues("JobVersion").stream().anyMatch(v -> v.asLong() == 1)
                    ? deploymentOf(1) : null;
            assertThat(failed).isNotNull();
            assertThat(failed.path("Status").asString()).isEqualTo("failed");
            assertThat(failed.path("StatusDescription").asString())
                    .isEqualTo("Failed due to unhealthy allocations - rolling back to job version 0");
        });
        assertThat(v1Seen).allMatch(n -> n <= 1);   // max_parallel 1: never two new allocations at once

        awaitDeployment(2, "successful");
        JsonNode job = get("/v1/job/" + jobId);
        assertThat(job.path("Version").asLong()).isEqualTo(2);
        assertThat(job.path("TaskGroups").get(0).path("Tasks").get(0).path("Config").path("stdout_string").asString()).isEqualTo("v0");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(live()).hasSize(2).allMatch(n -> n.endsWith("@v2")));
        JsonNode d1 = deploymentOf(1);
        List<JsonNode> d1Allocs = new ArrayList<>();
        get("/v1/deployment/allocations/" + d1.path("ID").asString()).forEach(d1Allocs::add);
        assertThat(d1Allocs).hasSize(1);
        assertThat(d1Allocs.get(0).path("DeploymentStatus").path("Healthy").asBoolean(true)).isFalse();
    }

    JsonNode deploymentOf(long version) throws Exception {
        for (JsonNode d : get("/v1/job/" + jobId + "/deployments")) {
            if (d.path("JobVersion").asLong() == version) {
                return d;
            }
        }
        return null;
    }

    @Test
    void theInitialAllocationsOfAJobParsedWithoutAnUpdateBlockJoinItsDeployment() throws Exception {
        String hcl = """
                job "%s" {
                  group "app" {
                    count = 2
                    task "server" {
                      driver = "mock_driver"
                      config {
                        run_for = "10m"
                      }
                      resources {
                        cpu    = 20
                        memory = 16
                      }
                    }
                  }
                }
                """.formatted(jobId);
        JsonNode parsed = send("POST", "/v1/jobs/parse", json.writeValueAsString(Map.of("JobHCL", hcl, "Canonicalize", true)));
        send("PUT", "/v1/jobs", json.writeValueAsString(Map.of("Job", parsed)));
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(live()).hasSize(2);
            assertThat(latestDeployment().path("TaskGroups").path("app").path("PlacedAllocs").asInt()).isEqualTo(2);
        });
        String deployment = latestDeployment().path("ID").asString();
        assertThat(deploymentOf(0).path("ID").asString()).isEqualTo(deployment);
        for (JsonNode stub : get("/v1/job/" + jobId + "/allocations")) {
            assertThat(stub.has("DeploymentID")).as("Nomad's AllocListStub has no DeploymentID: %s", stub).isFalse();
            assertThat(get("/v1/allocation/" + stub.path("ID").asString()).path("DeploymentID").asString(null)).isEqualTo(deployment);
        }
        assertThat(get("/v1/deployment/allocations/" + deployment)).hasSize(2);
        // no checks: healthy once the tasks ran for min_healthy_time (10 s by default), then the deployment succeeds
        awaitDeployment(0, "successful");
        for (JsonNode stub : get("/v1/job/" + jobId + "/allocations")) {
            assertThat(stub.path("DeploymentStatus").path("Healthy").asBoolean(false)).as("stub %s", stub).isTrue();
        }
    }

    @Test
    void aCanaryWaitsBesideTheOldAllocationsUntilPromotedByHand() throws Exception {
        String update = "\"MaxParallel\":1,\"MinHealthyTime\":0,\"Canary\":1,\"HealthCheck\":\"task_states\"";
        send("PUT", "/v1/jobs", job(2, "v0", update, ""));
        awaitDeployment(0, "successful");
        send("PUT", "/v1/jobs", job(2, "v1", update, ""));
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            JsonNode d = latestDeployment();
            assertThat(d.path("JobVersion").asLong()).isEqualTo(1);
            assertThat(d.path("StatusDescription").asString()).isEqualTo("Deployment is running but requires manual promotion");
            assertThat(d.path("TaskGroups").path("app").path("HealthyAllocs").asInt()).isEqualTo(1);
        });
        assertThat(live()).containsExactlyInAnyOrder(jobId + ".app[0]@v0", jobId + ".app[1]@v0", jobId + ".app[0]@v1");
        String id = latestDeployment().path("ID").asString();
        JsonNode canary = get("/v1/deployment/allocations/" + id).get(0);
        assertThat(canary.path("DeploymentStatus").path("Canary").asBoolean()).isTrue();

        JsonNode promoted = send("POST", "/v1/deployment/promote/" + id, "{\"DeploymentID\":\"" + id + "\",\"All\":true}");
        assertThat(promoted.path("EvalID").asString()).isNotEmpty();
        awaitDeployment(1, "successful");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(live())
                .containsExactlyInAnyOrder(jobId + ".app[0]@v1", jobId + ".app[1]@v1"));
        assertThat(get("/v1/job/" + jobId).path("Stable").asBoolean()).isTrue();
        var terminal = Http.send(port, "POST", "/v1/deployment/promote/" + id, "{\"All\":true}");
        assertThat(terminal.statusCode()).isEqualTo(400);
        assertThat(terminal.body()).contains("can't promote terminal deployment");
    }

    @Test
    void aDeploymentReadBackAfterARestartContinues() throws Exception {
        String update = "\"MaxParallel\":1,\"MinHealthyTime\":600000000000,\"HealthCheck\":\"task_states\"";
        send("PUT", "/v1/jobs", job(1, "v0", update, ""));
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(live()).hasSize(1);
            assertThat(latestDeployment().path("TaskGroups").path("app").path("PlacedAllocs").asInt()).isEqualTo(1);
        });
        JsonNode running = latestDeployment();
        assertThat(running.path("Status").asString()).isEqualTo("running");
        // times as Nomad writes them (RFC 3339, UTC): a deadline, and the zero time of a health not yet known
        assertThat(running.path("TaskGroups").path("app").path("RequireProgressBy").asString()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
        JsonNode alloc = get("/v1/allocation/" + get("/v1/job/" + jobId + "/allocations").get(0).path("ID").asString());
        assertThat(alloc.path("DeploymentID").asString()).isEqualTo(running.path("ID").asString());

        // a new registry, watcher and scheduler over the same store, as after an agent restart
        JobRegistry registry = new JobRegistry(store, feed, java.time.Clock.systemUTC());
        Deployments restored = new Deployments(registry, store, feed, java.time.Clock.systemUTC(), allocs, a -> List.of());
        assertThat(restored.get(running.path("ID").asString())).hasValueSatisfying(d -> {
            assertThat(d.status()).isEqualTo(Deployment.RUNNING);
            assertThat(d.taskGroups().get("app").placedAllocs()).isEqualTo(1);
        });
        try (LocalScheduler scheduler = new LocalScheduler(registry, allocs, store, feed, java.time.Clock.systemUTC(),
                Map::of, name -> java.util.Optional.empty(), restored, new NodeDrain(nodes, store, java.time.Clock.systemUTC()))) {
            scheduler.reconcileAll();
            assertThat(restored.ofJob("default", jobId)).singleElement()
                    .satisfies(d -> assertThat(d.id()).isEqualTo(running.path("ID").asString()));
            assertThat(scheduler.placements("default", jobId)).hasSize(1);
        }
        var fail = Http.send(port, "POST", "/v1/deployment/fail/" + running.path("ID").asString(), "{}");
        assertThat(fail.statusCode()).isEqualTo(200);
        awaitDeployment(0, "failed");
        assertThat(latestDeployment().path("StatusDescription").asString()).isEqualTo("Deployment marked as failed");
    }
}
