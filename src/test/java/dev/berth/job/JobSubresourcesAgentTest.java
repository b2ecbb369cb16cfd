package dev.berth.job;

import java.net.http.HttpResponse;
import java.time.Duration;
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
 * Every {@code /v1/job/:id/<action>} of Nomad is routed as an action of job {@code :id} (a child job's ID, slash included,
 * too): scale status and scaling, services, deployments, stable, evaluate, submission, actions; revert is a 501 that
 * says what is missing.
 */
@AgentIntegrationTest
class JobSubresourcesAgentTest {

    @LocalServerPort
    int port;

    final JsonMapper json = JsonMapper.builder().build();
    String jobId;

    @BeforeEach
    void id() {
        jobId = "sub-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterEach
    void cleanUp() throws Exception {
        Http.send(port, "DELETE", "/v1/job/" + jobId + "?purge=true", null);
    }

    String job(int count) {
        return """
                {"Job":{"ID":"%s","Type":"service","TaskGroups":[{"Name":"app","Count":%d,
                  "Tasks":[{"Name":"main","Driver":"mock_driver","Config":{"run_for":"10m"},"Resources":{"CPU":20,"MemoryMB":16},
                    "Actions":[{"Name":"hello","Command":"/bin/echo","Args":["hi"]}]}]}]}}""".formatted(jobId, count);
    }

    HttpResponse<String> call(String method, String path, String body) throws Exception {
        return Http.send(port, method, path, body);
    }

    JsonNode ok(String method, String path, String body) throws Exception {
        HttpResponse<String> r = call(method, path, body);
        assertThat(r.statusCode()).as(method + " " + path + " " + r.body()).isEqualTo(200);
        return json.readTree(r.body());
    }

    int running() throws Exception {
        int n = 0;
        for (JsonNode a : ok("GET", "/v1/job/" + jobId + "/allocations", null)) {
            n += "running".equals(a.path("ClientStatus").asString()) && "run".equals(a.path("DesiredStatus").asString()) ? 1 : 0;
        }
        return n;
    }

    @Test
    void scalingAGroupChangesItsCountAsANewVersionThatIsPlaced() throws Exception {
        ok("PUT", "/v1/jobs", job(1));
        await().atMost(Duration.ofSeconds(60)).until(() -> running() == 1);

        JsonNode status = ok("GET", "/v1/job/" + jobId + "/scale", null);
        assertThat(status.path("JobID").asString()).isEqualTo(jobId);
        assertThat(status.path("Namespace").asString()).isEqualTo("default");
        assertThat(status.path("JobStopped").asBoolean()).isFalse();
        assertThat(status.path("JobCreateIndex").asLong()).isPositive();
        JsonNode app = status.path("TaskGroups").path("app");
        assertThat(app.path("Desired").asInt()).isEqualTo(1);
        assertThat(app.path("Placed").asInt()).isEqualTo(1);
        assertThat(app.path("Running").asInt()).isEqualTo(1);
        assertThat(app.path("Events").isNull()).isTrue();

        JsonNode scaled = ok("POST", "/v1/job/" + jobId + "/scale",
                "{\"Count\":3,\"Target\":{\"Group\":\"app\"},\"Message\":\"more\",\"Meta\":{\"by\":\"test\"}}");
        String evalId = scaled.path("EvalID").asString();
        assertThat(evalId).isNotEmpty();
        assertThat(scaled.path("EvalCreateIndex").asLong()).isPositive();
        assertThat(scaled.path("JobModifyIndex").asLong()).isPositive();
        assertThat(scaled.has("Warnings")).isTrue();
        JsonNode job = ok("GET", "/v1/job/" + jobId, null);
        assertThat(job.path("Version").asLong()).isEqualTo(1);
        assertThat(job.path("TaskGroups").get(0).path("Count").asInt()).isEqualTo(3);
        assertThat(ok("GET", "/v1/job/" + jobId + "/evaluations", null).findValuesAsString("TriggeredBy")).contains("job-scaling");
        await().atMost(Duration.ofSeconds(60)).until(() -> running() == 3);

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode after = ok("GET", "/v1/job/" + jobId + "/scale", null).path("TaskGroups").path("app");
            assertThat(after.path("Desired").asInt()).isEqualTo(3);
            assertThat(after.path("Running").asInt()).isEqualTo(3);
            JsonNode event = after.path("Events").get(0);
            assertThat(event.path("Count").asLong()).isEqualTo(3);
            assertThat(event.path("PreviousCount").asLong()).isEqualTo(1);
            assertThat(event.path("Message").asString()).isEqualTo("more");
            assertThat(event.path("EvalID").asString()).isEqualTo(evalId);
            assertThat(event.path("Meta").path("by").asString()).isEqualTo("test");
        });

        // Nomad's refusals
        HttpResponse<String> noGroup = call("POST", "/v1/job/" + jobId + "/scale", "{\"Count\":2,\"Target\":{}}");
        assertThat(noGroup.statusCode()).isEqualTo(400);
        assertThat(noGroup.body()).contains("missing task group name for scaling action");
        HttpResponse<String> unknownGroup = call("POST", "/v1/job/" + jobId + "/scale", "{\"Count\":2,\"Target\":{\"Group\":\"x\"}}");
        assertThat(unknownGroup.statusCode()).isEqualTo(400);
        assertThat(unknownGroup.body()).contains("specified for scaling does not exist in job");
        assertThat(call("POST", "/v1/job/" + jobId + "-none/scale", "{\"Count\":2,\"Target\":{\"Group\":\"app\"}}").statusCode())
                .isEqualTo(404);
        assertThat(call("GET", "/v1/job/" + jobId + "-none/scale", null).statusCode()).isEqualTo(404);
    }

    @Test
    void servicesDeploymentsEvaluateSubmissionAndActionsAreTheJobs() throws Exception {
        ok("PUT", "/v1/jobs", job(1));
        assertThat(ok("GET", "/v1/job/" + jobId + "/services", null).isArray()).isTrue();
        assertThat(ok("GET", "/v1/job/" + jobId + "/services", null)).isEmpty();
        assertThat(call("GET", "/v1/job/" + jobId + "-none/services", null).statusCode()).isEqualTo(404);
        // a service job's first version starts a deployment (Nomad's default update strategy)
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(ok("GET", "/v1/job/" + jobId + "/deployments", null))
                .singleElement().satisfies(d -> assertThat(d.path("JobID").asString()).isEqualTo(jobId)));
        assertThat(ok("GET", "/v1/job/" + jobId + "/deployment", null).path("JobVersion").asLong()).isZero();
        assertThat(call("GET", "/v1/job/" + jobId + "-none/deployment", null).body()).isEqualTo("null");

        JsonNode evaluated = ok("POST", "/v1/job/" + jobId + "/evaluate", "{\"JobID\":\"" + jobId + "\"}");
        assertThat(ok("GET", "/v1/job/" + jobId + "/evaluations", null).findValuesAsString("ID"))
                .contains(evaluated.path("EvalID").asString());
        await().atMost(Duration.ofSeconds(30)).until(() -> "complete".equals(
                ok("GET", "/v1/evaluation/" + evaluated.path("EvalID").asString(), null).path("Status").asString()));

        HttpResponse<String> submission = call("GET", "/v1/job/" + jobId + "/submission?version=0", null);
        assertThat(submission.statusCode()).isEqualTo(404);
        assertThat(submission.body()).contains("job source not found");
        assertThat(call("GET", "/v1/job/" + jobId + "/submission", null).statusCode()).isEqualTo(400);

        JsonNode action = ok("GET", "/v1/job/" + jobId + "/actions", null).get(0);
        assertThat(action.path("Name").asString()).isEqualTo("hello");
        assertThat(action.path("TaskName").asString()).isEqualTo("main");
        assertThat(action.path("TaskGroupName").asString()).isEqualTo("app");

        HttpResponse<String> revert = call("POST", "/v1/job/" + jobId + "/revert", "{\"JobID\":\"" + jobId + "\"}");
        assertThat(revert.statusCode()).isEqualTo(501);
        assertThat(revert.body()).doesNotContain("job not found").doesNotContain("no scheduler");
        JsonNode stable = ok("PUT", "/v1/job/" + jobId + "/stable",
                "{\"JobID\":\"" + jobId + "\",\"JobVersion\":0,\"Stable\":true}");
        assertThat(stable.path("JobModifyIndex").asLong()).isPositive();
        assertThat(ok("GET", "/v1/job/" + jobId, null).path("Stable").asBoolean()).isTrue();
        assertThat(call("PUT", "/v1/job/" + jobId + "/stable", "{\"JobID\":\"other\"}").body()).contains("Job ID does not match");
        assertThat(call("PUT", "/v1/job/" + jobId + "/stable", "{\"JobID\":\"" + jobId + "\",\"JobVersion\":9}").statusCode())
                .isEqualTo(404);
    }

    @Test
    void theActionsOfAChildJobWhoseIdHoldsASlashAreRoutedToIt() throws Exception {
        // a job ID with a slash, as a periodic or dispatched child has: the action is the last segment, not part of the ID
        String child = jobId + "/periodic-1790000000";
        ok("PUT", "/v1/jobs", job(1).replace("\"ID\":\"" + jobId + "\"", "\"ID\":\"" + child + "\""));
        try {
            assertThat(ok("GET", "/v1/job/" + child + "/scale", null).path("JobID").asString()).isEqualTo(child);
            assertThat(ok("GET", "/v1/job/" + child + "/deployments", null).isArray()).isTrue();
            assertThat(ok("GET", "/v1/job/" + child + "/services", null)).isEmpty();
            assertThat(ok("POST", "/v1/job/" + child + "/scale", "{\"Count\":0,\"Target\":{\"Group\":\"app\"}}")
                    .path("EvalID").asString()).isNotEmpty();
        } finally {
            call("DELETE", "/v1/job/" + child + "?purge=true", null);
        }
    }
}
