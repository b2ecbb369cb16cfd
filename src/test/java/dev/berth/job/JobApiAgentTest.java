package dev.berth.job;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
import dev.berth.fingerprint.NodeRegistry;
import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The node-local job API in Nomad's JSON shapes against a running agent; the tasks are real raw_exec processes. The same
 * calls through HashiCorp's Java SDK are in {@code dev.berth.conformance.NomadSdkJobsTest} (agent in its own JVM).
 */
@AgentIntegrationTest
class JobApiAgentTest {

    @LocalServerPort
    int port;

    final JsonMapper json = JsonMapper.builder().build();
    String jobId;

    @BeforeEach
    void id() {
        jobId = "web-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterEach
    void cleanUp() throws Exception {
        Http.send(port, "DELETE", "/v1/job/" + jobId + "?purge=true", null);
    }

    String job(int count, String marker, String extraGroup) {
        return """
                {"Job":{"ID":"%s","Name":"%s","Type":"service","Datacenters":["dc1"],"TaskGroups":[{"Name":"app","Count":%d,%s
                  "Networks":[{"DynamicPorts":[{"Label":"http"}]}],
                  "Tasks":[{"Name":"server","Driver":"raw_exec",
                    "Config":{"command":"/bin/sh","args":["-c","echo \\"$1\\" > \\"$NOMAD_TASK_DIR/port\\"; exec sleep 600","sh","${NOMAD_PORT_http}"]},
                    "Env":{"MARKER":"%s"},"Resources":{"CPU":20,"MemoryMB":16}}]}]}}"""
                .formatted(jobId, jobId, count, extraGroup, marker);
    }

    JsonNode get(String path) throws Exception {
        return Http.ok(port, "GET", path, null);
    }

    JsonNode send(String method, String path, String body) throws Exception {
        return Http.ok(port, method, path, body);
    }

    List<String> running() throws Exception {
        List<String> ids = new ArrayList<>();
        for (JsonNode a : get("/v1/job/" + jobId + "/allocations")) {
            if ("running".equals(a.path("ClientStatus").asString()) && "run".equals(a.path("DesiredStatus").asString())) {
                ids.add(a.path("ID").asString());
            }
        }
        return ids;
    }

    /**
     * Waits until the job's running allocations satisfy {@code done}; a timeout names what the agent did instead (each
     * allocation with its statuses and last task events, the job's evaluations).
     */
    void awaitRunning(int seconds, java.util.function.Predicate<List<String>> done) throws Exception {
        dev.berth.support.ThreadDumps.showingOnTimeout("JobApiAgentTest", "berth-scheduler", () ->
                await().atMost(Duration.ofSeconds(seconds)).untilAsserted(() -> assertThat(done.test(running()))
                        .as("job %s: allocations %s; evaluations %s", jobId, allocSummary(), evalSummary()).isTrue()));
    }

    String allocSummary() throws Exception {
        List<String> out = new ArrayList<>();
        for (JsonNode a : get("/v1/job/" + jobId + "/allocations")) {
            List<String> events = new ArrayList<>();
            a.path("TaskStates").forEach(ts -> ts.path("Events").forEach(e -> events.add(e.path("Type").asString() + ":" + e.path("DisplayMessage").asString())));
            out.add(a.path("Name").asString() + " " + a.path("ClientStatus").asString() + "/" + a.path("DesiredStatus").asString() + " " + events);
        }
        return out.toString();
    }

    String evalSummary() throws Exception {
        List<String> out = new ArrayList<>();
        for (JsonNode e : get("/v1/job/" + jobId + "/evaluations")) {
            out.add(e.path("TriggeredBy").asString() + "=" + e.path("Status").asString() + " " + e.path("StatusDescription").asString()
                    + " " + e.path("FailedTGAllocs").toString());
        }
        long live = 0;
        for (JsonNode a : get("/v1/allocations")) {
            live += "run".equals(a.path("DesiredStatus").asString()) && !"complete".equals(a.path("ClientStatus").asString())
                    && !"failed".equals(a.path("ClientStatus").asString()) ? 1 : 0;
        }
        return out + "; job status " + get("/v1/job/" + jobId).path("Status").asString() + "; live allocations on the node " + live;
    }

    List<String> runningNames() throws Exception {
        List<String> names = new ArrayList<>();
        for (JsonNode a : get("/v1/job/" + jobId + "/allocations")) {
            if ("running".equals(a.path("ClientStatus").asString()) && "run".equals(a.path("DesiredStatus").asString())) {
                names.add(a.path("Name").asString());
            }
        }
        return names;
    }

    @Test
    void registerInfoListVersionsPlanScaleUpdateAndStop() throws Exception {
        JsonNode reg = send("PUT", "/v1/jobs", job(2, "a", ""));
        assertThat(reg.path("EvalID").asString()).isNotEmpty();
        assertThat(reg.path("JobModifyIndex").asLong()).isPositive();
        awaitRunning(60, ids -> ids.size() == 2);
        assertThat(runningNames()).containsExactlyInAnyOrder(jobId + ".app[0]", jobId + ".app[1]");

        JsonNode info = get("/v1/job/" + jobId);
        assertThat(info.path("Version").asLong()).isZero();
        assertThat(info.path("Status").asString()).isEqualTo("running");
        assertThat(info.path("TaskGroups").get(0).path("Tasks").get(0).path("KillTimeout").asLong()).isEqualTo(5_000_000_000L);
        assertThat(info.path("TaskGroups").get(0).path("ReschedulePolicy").path("DelayFunction").asString()).isEqualTo("exponential");
        assertThat(get("/v1/jobs?prefix=" + jobId.substring(0, 6)).findValuesAsString("ID")).contains(jobId);
        assertThat(get("/v1/evaluation/" + reg.path("EvalID").asString()).path("Status").asString()).isEqualTo("complete");
        assertThat(get("/v1/job/" + jobId + "/summary").path("Summary").path("app").path("Running").asInt()).isEqualTo(2);
        assertThat(get("/v1/job/" + jobId + "/evaluations").findValuesAsString("ID")).contains(reg.path("EvalID").asString());

        // EnforceIndex with a stale index changes nothing.
        HttpResponse<String> stale = Http.send(port, "PUT", "/v1/jobs",
                job(5, "a", "").replaceFirst("^\\{", "{\"EnforceIndex\":true,\"JobModifyIndex\":" + (reg.path("JobModifyIndex").asLong() + 1000) + ","));
        assertThat(stale.statusCode()).isEqualTo(409);

        // A plan of a scale-up says what it would do and does nothing.
        JsonNode plan = send("POST", "/v1/job/" + jobId + "/plan", job(3, "a", ""));
        assertThat(plan.path("Annotations").path("DesiredTGUpdates").path("app").path("Place").asInt()).isEqualTo(1);
        assertThat(plan.path("Diff").path("Type").asString()).isEqualTo("Edited");
        assertThat(running()).hasSize(2);

        // Count is an in-place change: the allocations stay, one is added.
        List<String> before = running();
        send("PUT", "/v1/jobs", job(3, "a", ""));
        awaitRunning(60, ids -> ids.size() == 3);
        assertThat(running()).containsAll(before);

        // Scale down stops the highest index.
        send("PUT", "/v1/jobs", job(2, "a", ""));
        awaitRunning(60, ids -> ids.size() == 2);
        assertThat(runningNames()).containsExactlyInAnyOrder(jobId + ".app[0]", jobId + ".app[1]");

        // A task change is destructive: new allocations replace the old ones one at a time, each naming its predecessor.
        send("PUT", "/v1/jobs", job(2, "b", "\"Update\":{\"MaxParallel\":1},"));
        awaitRunning(120, ids -> ids.size() == 2 && ids.stream().noneMatch(before::contains));
        for (JsonNode a : get("/v1/job/" + jobId + "/allocations")) {
            if ("run".equals(a.path("DesiredStatus").asString())) {
                // an AllocListStub has no PreviousAllocation: the whole allocation has
                assertThat(before).contains(get("/v1/allocation/" + a.path("ID").asString()).path("PreviousAllocation").asString());
            }
        }
        assertThat(get("/v1/job/" + jobId + "/versions").path("Versions").findValuesAsString("Version")).isNotEmpty();
        assertThat(get("/v1/job/" + jobId + "/versions").path("Versions").get(0).path("Version").asLong()).isEqualTo(3); // 2 → 3 → 2 → new task env

        send("DELETE", "/v1/job/" + jobId, null);
        await().atMost(Duration.ofSeconds(60)).until(() -> running().isEmpty());
        assertThat(get("/v1/job/" + jobId).path("Stop").asBoolean()).isTrue();
        send("DELETE", "/v1/job/" + jobId + "?purge=true", null);
        assertThat(Http.send(port, "GET", "/v1/job/" + jobId, null).statusCode()).isEqualTo(404);
    }

    @Test
    void aJobThatCanNeverMeetItsConstraintFailsItsEvaluation() throws Exception {
        String body = job(1, "a", "\"Constraints\":[{\"LTarget\":\"${attr.kernel.name}\",\"RTarget\":\"windows\",\"Operand\":\"=\"}],");
        JsonNode reg = send("PUT", "/v1/jobs", body);
        await().atMost(Duration.ofSeconds(30)).until(() -> "failed".equals(get("/v1/evaluation/" + reg.path("EvalID").asString())
                .path("Status").asString()));
        JsonNode eval = get("/v1/evaluation/" + reg.path("EvalID").asString());
        assertThat(eval.path("FailedTGAllocs").path("app").path("ConstraintFiltered").toString()).contains("windows");
        assertThat(get("/v1/job/" + jobId + "/allocations")).isEmpty();
    }

    /**
     * Spring's test framework stops the lifecycle of a cached context that is not in use and starts it again when a test
     * class reuses it; the scheduler's loop ended at the stop and was never started again, so no job was ever placed.
     */
    @Test
    void aSchedulerStoppedAndStartedAgainStillPlaces() throws Exception {
        org.springframework.context.SmartLifecycle lifecycle =
                context.getBean("jobSchedulerLifecycle", org.springframework.context.SmartLifecycle.class);
        lifecycle.stop();
        lifecycle.start();
        JsonNode reg = send("PUT", "/v1/jobs", job(1, "a", ""));
        awaitRunning(60, ids -> ids.size() == 1);
        assertThat(get("/v1/evaluation/" + reg.path("EvalID").asString()).path("Status").asString()).isEqualTo("complete");
    }

    @Autowired
    org.springframework.context.ApplicationContext context;
    @Autowired
    JobStore store;
    @Autowired
    AllocManager allocs;
    @Autowired
    ChangeFeed feed;
    @Autowired
    NodeRegistry node;

    @Test
    void aJobspecParsesRunsAndARestartedSchedulerPlacesNothingTwice() throws Exception {
        String hcl = """
                job "%s" {
                  group "app" {
                    count = 2
                    network {
                      port "http" {}
                    }
                    task "server" {
                      driver = "raw_exec"
                      config {
                        command = "/bin/sh"
                        args    = ["-c", "echo \\"$1\\" > \\"$NOMAD_TASK_DIR/port\\"; exec sleep 600", "sh", "${NOMAD_PORT_http}"]
                      }
                      resources {
                        cpu    = 20
                        memory = 16
                      }
                    }
                  }
                }
                """.formatted(jobId);
        JsonNode parsed = send("POST", "/v1/jobs/parse", json.writeValueAsString(java.util.Map.of("JobHCL", hcl, "Canonicalize", true)));
        assertThat(parsed.path("TaskGroups").get(0).path("Tasks").get(0).path("KillTimeout").asLong()).isEqualTo(5_000_000_000L);
        send("PUT", "/v1/jobs", json.writeValueAsString(java.util.Map.of("Job", parsed)));
        awaitRunning(60, ids -> ids.size() == 2);

        // A new registry and scheduler over the same store and allocations, as after an agent restart: nothing new is placed.
        List<String> before = new ArrayList<>();
        get("/v1/job/" + jobId + "/allocations").forEach(a -> before.add(a.path("ID").asString()));
        JobRegistry registry = new JobRegistry(store, feed, java.time.Clock.systemUTC());
        try (LocalScheduler restarted = new LocalScheduler(registry, allocs, store, feed, java.time.Clock.systemUTC(),
                () -> dev.berth.alloc.task.Interpolator.nodeAttributes(node.current(), null),
                name -> java.util.Optional.ofNullable(node.current().hostVolumes().get(name)),
                new Deployments(registry, store, feed, java.time.Clock.systemUTC(), allocs, allocId -> List.of()), new NodeDrain(node, store, java.time.Clock.systemUTC()))) {
            restarted.reconcileAll();
            restarted.reconcileAll();
            assertThat(restarted.placements("default", jobId)).extracting(Placement::allocId).containsExactlyInAnyOrderElementsOf(before);
        }
        List<String> after = new ArrayList<>();
        get("/v1/job/" + jobId + "/allocations").forEach(a -> after.add(a.path("ID").asString()));
        assertThat(after).containsExactlyInAnyOrderElementsOf(before);

        HttpResponse<String> broken = Http.send(port, "POST", "/v1/jobs/parse",
                json.writeValueAsString(java.util.Map.of("JobHCL", "job \"x\" {\n  group \"g\" {\n    count = = 1\n  }\n}\n")));
        assertThat(broken.statusCode()).isEqualTo(400);
        assertThat(broken.body()).containsPattern("input\\.hcl:\\d+,\\d+");
    }

    @Test
    void anInvalidJobIsA400AndChangesNothing() throws Exception {
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/jobs", "{\"Job\":{\"ID\":\"" + jobId + "\",\"TaskGroups\":[]}}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("Missing job task groups");
        assertThat(Http.send(port, "GET", "/v1/job/" + jobId, null).statusCode()).isEqualTo(404);
    }
}
