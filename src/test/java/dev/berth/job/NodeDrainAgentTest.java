package dev.berth.job;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;

import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Eligibility and drain against a running agent with mock driver tasks (this is about scheduling, not drivers): a node
 * drained with a service job ({@code migrate.max_parallel = 1}) and a batch job stops one service allocation, whose
 * replacement waits as a blocked evaluation, lets the batch one run until the (forced) deadline, completes, stays
 * ineligible, and places the replacements once it is eligible again.
 */
@AgentIntegrationTest
class NodeDrainAgentTest {

    @LocalServerPort
    int port;

    String web;
    String report;
    String node;

    @BeforeEach
    void ids() throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        web = "web-" + suffix;
        report = "report-" + suffix;
        node = get("/v1/node/self").path("ID").asString();
    }

    @AfterEach
    void cleanUp() throws Exception {
        Http.send(port, "PUT", "/v1/node/" + node + "/drain", "{\"DrainSpec\":null,\"MarkEligible\":true}");
        Http.send(port, "PUT", "/v1/node/" + node + "/eligibility", "{\"Eligibility\":\"eligible\"}");
        Http.send(port, "DELETE", "/v1/job/" + web + "?purge=true", null);
        Http.send(port, "DELETE", "/v1/job/" + report + "?purge=true", null);
    }

    JsonNode get(String path) throws Exception {
        return Http.ok(port, "GET", path, null);
    }

    JsonNode send(String method, String path, String body) throws Exception {
        return Http.ok(port, method, path, body);
    }

    String job(String id, String type, int count) {
        return """
                {"Job":{"ID":"%s","Type":"%s","Datacenters":["dc1"],"Update":{"MaxParallel":0},
                  "TaskGroups":[{"Name":"app","Count":%d,"Migrate":{"MaxParallel":1},"RestartPolicy":{"Attempts":0,"Mode":"fail"},
                    "Tasks":[{"Name":"t","Driver":"mock_driver","Config":{"run_for":"10m"},"Resources":{"CPU":20,"MemoryMB":16}}]}]}}"""
                .formatted(id, type, count);
    }

    List<JsonNode> allocs(String jobId) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode stub : get("/v1/job/" + jobId + "/allocations")) {
            out.add(get("/v1/allocation/" + stub.path("ID").asString()));
        }
        return out;
    }

    static long count(List<JsonNode> allocs, String desired, String client) {
        return allocs.stream().filter(a -> a.path("DesiredStatus").asString().equals(desired)
                && a.path("ClientStatus").asString().equals(client)).count();
    }

    @Test
    void aDrainedServiceAllocationStopsItsReplacementBlocksAndBatchRunsUntilTheDeadline() throws Exception {
        send("PUT", "/v1/jobs", job(web, "service", 2));
        send("PUT", "/v1/jobs", job(report, "batch", 1));
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(count(allocs(web), "run", "running")).isEqualTo(2);
            assertThat(count(allocs(report), "run", "running")).isEqualTo(1);
        });

        JsonNode started = send("PUT", "/v1/node/" + node + "/drain",
                "{\"DrainSpec\":{\"Deadline\":0,\"IgnoreSystemJobs\":false},\"Meta\":{\"reason\":\"kernel\"}}");
        assertThat(started.path("NodeModifyIndex").asLong()).isPositive();
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            List<JsonNode> w = allocs(web);
            assertThat(count(w, "stop", "complete")).isEqualTo(1);
            assertThat(count(w, "run", "running")).isEqualTo(1);
            JsonNode migrated = w.stream().filter(a -> a.path("DesiredStatus").asString().equals("stop")).findFirst().orElseThrow();
            assertThat(migrated.path("DesiredTransition").path("Migrate").asBoolean()).isTrue();
            assertThat(migrated.path("DesiredDescription").asString()).isEqualTo("alloc is being migrated");
            assertThat(count(allocs(report), "run", "running")).isEqualTo(1);
            JsonNode blocked = blockedEval(web);
            assertThat(blocked).isNotNull();
            assertThat(blocked.path("StatusDescription").asString()).isEqualTo("created to place remaining allocations");
            assertThat(blocked.path("FailedTGAllocs").path("app").path("NodesEvaluated").asInt()).isZero();
        });
        JsonNode draining = get("/v1/node/" + node);
        assertThat(draining.path("SchedulingEligibility").asString()).isEqualTo("ineligible");
        assertThat(draining.path("DrainStrategy").path("Deadline").asLong()).isZero();
        assertThat(draining.path("DrainStrategy").path("ForceDeadline").asString()).isEqualTo("0001-01-01T00:00:00Z");
        assertThat(draining.path("LastDrain").path("Status").asString()).isEqualTo("draining");
        assertThat(draining.path("LastDrain").path("Meta").path("reason").asString()).isEqualTo("kernel");
        assertThat(get("/v1/nodes").get(0).path("Drain").asBoolean()).isTrue();
        assertThat(messages(draining)).contains("Node drain strategy set");
        // the drain holds here: the one left is count - max_parallel, and its replacement can never be healthy on this node

        send("PUT", "/v1/node/" + node + "/drain", "{\"DrainSpec\":{\"Deadline\":-1}}");
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            JsonNode n = get("/v1/node/" + node);
            assertThat(n.path("DrainStrategy").isNull()).isTrue();
            assertThat(n.path("LastDrain").path("Status").asString()).isEqualTo("complete");
            assertThat(count(allocs(web), "stop", "complete")).isEqualTo(2);
            assertThat(count(allocs(report), "stop", "complete")).isEqualTo(1);
        });
        JsonNode done = get("/v1/node/" + node);
        assertThat(done.path("SchedulingEligibility").asString()).isEqualTo("ineligible");
        assertThat(messages(done)).contains("Node drain strategy updated", "Node drain complete");
        HttpResponse<String> refused = Http.send(port, "PUT", "/v1/node/" + node + "/eligibility", "{\"Eligibility\":\"sometimes\"}");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("invalid scheduling eligibility \\\"sometimes\\\"");

        JsonNode eligible = send("PUT", "/v1/node/" + node + "/eligibility", "{\"NodeID\":\"" + node + "\",\"Eligibility\":\"eligible\"}");
        assertThat(eligible.path("EvalIDs")).isNotEmpty();
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            assertThat(count(allocs(web), "run", "running")).isEqualTo(2);
            assertThat(blockedEval(web)).isNull();
        });
        assertThat(messages(get("/v1/node/" + node))).contains("Node marked as eligible for scheduling");
        // the batch allocation the deadline stopped finished as far as the scheduler is concerned: it is not placed again
        assertThat(count(allocs(report), "run", "running")).isZero();
    }

    @Test
    void anIneligibleNodeBlocksANewJobUntilEligibleAgain() throws Exception {
        send("PUT", "/v1/node/" + node + "/eligibility", "{\"Eligibility\":\"ineligible\"}");
        JsonNode registered = send("PUT", "/v1/jobs", job(web, "service", 1));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode eval = get("/v1/evaluation/" + registered.path("EvalID").asString());
            assertThat(eval.path("Status").asString()).isEqualTo("complete");
            assertThat(eval.path("BlockedEval").asString()).isNotEmpty();
            assertThat(eval.path("FailedTGAllocs").path("app").path("NodesAvailable").path("dc1").asInt(-1)).isZero();
        });
        assertThat(allocs(web)).isEmpty();
        assertThat(messages(get("/v1/node/self"))).contains("Node marked as ineligible for scheduling");
        assertThat(get("/v1/nodes").get(0).path("SchedulingEligibility").asString()).isEqualTo("ineligible");

        send("PUT", "/v1/node/" + node + "/eligibility", "{\"Eligibility\":\"eligible\"}");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(count(allocs(web), "run", "running")).isEqualTo(1));
        HttpResponse<String> unknown = Http.send(port, "PUT", "/v1/node/nope/eligibility", "{\"Eligibility\":\"eligible\"}");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.body()).contains("node not found");
    }

    JsonNode blockedEval(String jobId) throws Exception {
        for (JsonNode e : get("/v1/job/" + jobId + "/evaluations")) {
            if ("blocked".equals(e.path("Status").asString())) {
                return e;
            }
        }
        return null;
    }

    static List<String> messages(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.path("Events").forEach(e -> out.add(e.path("Message").asString()));
        return out;
    }
}
