package dev.berth.job;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Children of parameterized and periodic jobs on a running agent with real raw_exec tasks: dispatch with payload and meta
 * (the payload file and {@code NOMAD_META_*} seen by the task), Nomad's refusals, periodic force, child IDs with a
 * {@code /} in the path, and the job list and summary indexes moving with allocation statuses.
 */
@AgentIntegrationTest
class JobChildrenAgentTest {

    @LocalServerPort
    int port;

    final JsonMapper json = JsonMapper.builder().build();
    String jobId;

    @BeforeEach
    void id() {
        jobId = "kids-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (JsonNode j : get("/v1/jobs?prefix=" + jobId)) {
            Http.send(port, "DELETE", "/v1/job/" + j.path("ID").asString() + "?purge=true", null);
        }
    }

    JsonNode get(String path) throws Exception {
        return Http.ok(port, "GET", path, null);
    }

    JsonNode send(String method, String path, String body) throws Exception {
        return Http.ok(port, method, path, body);
    }

    String batchJob(String extraJob, String extraTask, String script) {
        return """
                {"Job":{"ID":"%s","Name":"%s","Type":"batch",%s"TaskGroups":[{"Name":"g","Count":1,
                  "RestartPolicy":{"Attempts":0,"Mode":"fail","Interval":60000000000,"Delay":1000000000},
                  "Tasks":[{"Name":"t","Driver":"raw_exec",%s
                    "Config":{"command":"/bin/sh","args":["-c","%s"]},"Resources":{"CPU":20,"MemoryMB":16}}]}]}}"""
                .formatted(jobId, jobId, extraJob, extraTask, script);
    }

    JsonNode awaitComplete(String childId) {
        return await().atMost(Duration.ofSeconds(90)).until(() -> {
            JsonNode allocs = get("/v1/job/" + childId + "/allocations");
            return allocs.size() == 1 && "complete".equals(allocs.get(0).path("ClientStatus").asString()) ? allocs.get(0) : null;
        }, a -> a != null);
    }

    @Test
    void aDispatchedChildGetsThePayloadFileAndMeta() throws Exception {
        send("PUT", "/v1/jobs", batchJob("""
                "ParameterizedJob":{"Payload":"required","MetaRequired":["customer"],"MetaOptional":["size"]},""",
                "\"DispatchPayload\":{\"File\":\"in/payload.txt\"},",
                "cat \\\"$NOMAD_TASK_DIR/in/payload.txt\\\" > \\\"$NOMAD_TASK_DIR/seen\\\"; echo \\\" $NOMAD_META_customer\\\" >> \\\"$NOMAD_TASK_DIR/seen\\\""));
        // the template itself is never placed
        assertThat(get("/v1/job/" + jobId + "/allocations")).isEmpty();

        HttpResponse<String> missing = Http.send(port, "POST", "/v1/job/" + jobId + "/dispatch",
                "{\"Payload\":\"" + b64("x") + "\",\"Meta\":{\"size\":\"L\"}}");
        assertThat(missing.statusCode()).isEqualTo(400);
        assertThat(missing.body()).contains("Dispatch did not provide required meta keys: [customer]");
        HttpResponse<String> noPayload = Http.send(port, "POST", "/v1/job/" + jobId + "/dispatch", "{\"Meta\":{\"customer\":\"acme\"}}");
        assertThat(noPayload.statusCode()).isEqualTo(400);
        assertThat(noPayload.body()).contains("Payload is not provided but required by parameterized job");

        JsonNode d = send("POST", "/v1/job/" + jobId + "/dispatch",
                "{\"Payload\":\"" + b64("hello payload") + "\",\"Meta\":{\"customer\":\"acme\"}}");
        String child = d.path("DispatchedJobID").asString();
        assertThat(child).matches(jobId + "/dispatch-\\d+-[0-9a-f]{8}");
        assertThat(d.path("EvalID").asString()).isNotEmpty();
        assertThat(d.path("EvalCreateIndex").asLong()).isPositive();
        assertThat(d.path("JobCreateIndex").asLong()).isPositive();
        assertThat(d.path("Index").asLong()).isPositive();

        // the child's ID holds a "/": the path works as the Java SDK sends it
        JsonNode childJob = get("/v1/job/" + child);
        assertThat(childJob.path("ParentID").asString()).isEqualTo(jobId);
        assertThat(childJob.path("Dispatched").asBoolean()).isTrue();
        assertThat(childJob.path("Meta").path("customer").asString()).isEqualTo("acme");
        JsonNode alloc = awaitComplete(child);
        HttpResponse<String> seen = Http.send(port, "GET", "/v1/client/fs/cat/" + alloc.path("ID").asString() + "?path=t/local/seen", null);
        assertThat(seen.body()).isEqualTo("hello payload acme\n");
        assertThat(get("/v1/job/" + child + "/summary").path("JobID").asString()).isEqualTo(child);
        assertThat(get("/v1/job/" + jobId + "/summary").path("Children").path("Dead").asInt()
                + get("/v1/job/" + jobId + "/summary").path("Children").path("Running").asInt()).isEqualTo(1);
        assertThat(get("/v1/jobs?prefix=" + jobId)).extracting(j -> j.path("ID").asString()).contains(jobId, child);

        // curl -d sends a form Content-Type; the body is still the JSON request, also with a query parameter
        HttpResponse<String> asCurl = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create("http://127.0.0.1:" + port + "/v1/job/" + jobId + "/dispatch?namespace=default"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"Payload\":\"" + b64("x") + "\",\"Meta\":{\"customer\":\"c\"}}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(asCurl.statusCode()).as(asCurl.body()).isEqualTo(200);
        assertThat(json.readTree(asCurl.body()).path("DispatchedJobID").asString()).startsWith(jobId + "/dispatch-");

        HttpResponse<String> notParameterized = Http.send(port, "POST", "/v1/job/" + child + "/dispatch", "{}");
        assertThat(notParameterized.statusCode()).isEqualTo(400);
        assertThat(notParameterized.body()).contains("is not a parameterized job");
    }

    @Test
    void periodicForceLaunchesAChildAndTheListIndexMovesWithItsAllocation() throws Exception {
        send("PUT", "/v1/jobs", batchJob("\"Periodic\":{\"Spec\":\"0 0 1 1 *\",\"ProhibitOverlap\":true},", "",
                "exec sleep 600"));
        assertThat(get("/v1/job/" + jobId + "/allocations")).isEmpty();
        JsonNode plan = send("POST", "/v1/job/" + jobId + "/plan", json.writeValueAsString(Map.of("Job", get("/v1/job/" + jobId))));
        assertThat(plan.path("NextPeriodicLaunch").asString()).endsWith("-01-01T00:00:00Z");

        JsonNode forced = send("POST", "/v1/job/" + jobId + "/periodic/force", "");
        assertThat(forced.path("EvalID").asString()).isNotEmpty();
        assertThat(forced.path("EvalCreateIndex").asLong()).isPositive();
        assertThat(forced.path("Index").asLong()).isPositive();
        String child = await().atMost(Duration.ofSeconds(10)).until(() -> {
            for (JsonNode j : get("/v1/jobs?prefix=" + jobId + "/periodic-")) {
                return j.path("ID").asString();
            }
            return null;
        }, c -> c != null);
        assertThat(get("/v1/job/" + child).path("ParentID").asString()).isEqualTo(jobId);
        assertThat(get("/v1/job/" + child).path("Periodic").isNull()).isTrue();
        await().atMost(Duration.ofSeconds(90)).until(() -> get("/v1/job/" + child + "/allocations").size() == 1
                && "running".equals(get("/v1/job/" + child + "/allocations").get(0).path("ClientStatus").asString()));

        // a blocking query on the list and on the summary wakes when the child's allocation stops
        HttpResponse<String> list = Http.send(port, "GET", "/v1/jobs?prefix=" + jobId, null);
        long listIndex = Long.parseLong(list.headers().firstValue("X-Nomad-Index").orElseThrow());
        HttpResponse<String> summary = Http.send(port, "GET", "/v1/job/" + child + "/summary", null);
        long summaryIndex = Long.parseLong(summary.headers().firstValue("X-Nomad-Index").orElseThrow());
        String allocId = get("/v1/job/" + child + "/allocations").get(0).path("ID").asString();
        var waitingList = java.util.concurrent.CompletableFuture.supplyAsync(() -> call("/v1/jobs?prefix=" + jobId + "&wait=60s&index=" + listIndex));
        var waitingSummary = java.util.concurrent.CompletableFuture.supplyAsync(() -> call("/v1/job/" + child + "/summary?wait=60s&index=" + summaryIndex));
        send("POST", "/v1/allocation/" + allocId + "/stop", "");
        HttpResponse<String> woken = waitingList.get(90, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(Long.parseLong(woken.headers().firstValue("X-Nomad-Index").orElseThrow())).isGreaterThan(listIndex);
        HttpResponse<String> wokenSummary = waitingSummary.get(90, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(Long.parseLong(wokenSummary.headers().firstValue("X-Nomad-Index").orElseThrow())).isGreaterThan(summaryIndex);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            HttpResponse<String> s = Http.send(port, "GET", "/v1/job/" + child + "/summary", null);
            assertThat(json.readTree(s.body()).path("Summary").path("g").path("Running").asInt()).isZero();
            assertThat(Long.parseLong(s.headers().firstValue("X-Nomad-Index").orElseThrow())).isGreaterThan(summaryIndex);
        });
    }

    @Test
    void theLauncherLoopLaunchesOnScheduleAndProhibitOverlapHoldsTheNextSlots() throws Exception {
        // 7 fields: every second; a child that runs for ten minutes, so with prohibit_overlap exactly one is launched
        send("PUT", "/v1/jobs", batchJob("\"Periodic\":{\"Spec\":\"* * * * * * *\",\"ProhibitOverlap\":true},", "",
                "exec sleep 600"));
        String child = await().atMost(Duration.ofSeconds(30)).until(() -> {
            for (JsonNode j : get("/v1/jobs?prefix=" + jobId + "/periodic-")) {
                return j.path("ID").asString();
            }
            return null;
        }, c -> c != null);
        assertThat(child).matches(jobId + "/periodic-\\d+");
        await().atMost(Duration.ofSeconds(90)).until(() -> get("/v1/job/" + child + "/allocations").size() == 1
                && "running".equals(get("/v1/job/" + child + "/allocations").get(0).path("ClientStatus").asString()));
        // later slots pass while the child runs: the launcher has moved on (its last launch is newer) but launched nothing
        long launchedAt = Long.parseLong(child.substring(child.lastIndexOf('-') + 1));
        await().atMost(Duration.ofSeconds(30)).until(() -> launcher.lastLaunch("default", jobId)
                .map(t -> t.getEpochSecond() > launchedAt + 1).orElse(false));
        assertThat(get("/v1/jobs?prefix=" + jobId + "/periodic-")).hasSize(1);
        send("DELETE", "/v1/job/" + jobId + "?purge=true", null);
    }

    @org.springframework.beans.factory.annotation.Autowired
    PeriodicLauncher launcher;

    HttpResponse<String> call(String path) {
        try {
            return Http.send(port, "GET", path, null);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }
}
