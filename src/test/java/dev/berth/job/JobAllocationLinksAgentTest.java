package dev.berth.job;

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
 * What a Nomad server fills into the allocations its scheduler placed, on every shape of an allocation
 * ({@code /v1/allocation/:id}, {@code /v1/allocations}, {@code /v1/job/:id/allocations}): the evaluation that placed it,
 * the same indexes and times, the allocation that replaced it; and the node pool of a registered job.
 */
@AgentIntegrationTest
class JobAllocationLinksAgentTest {

    @LocalServerPort
    int port;

    String jobId;

    @BeforeEach
    void id() {
        jobId = "links-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterEach
    void cleanUp() throws Exception {
        Http.send(port, "DELETE", "/v1/job/" + jobId + "?purge=true", null);
    }

    String job(String marker) {
        return """
                {"Job":{"ID":"%s","Type":"service","TaskGroups":[{"Name":"app","Count":1,"Update":{"MaxParallel":1},
                  "Tasks":[{"Name":"main","Driver":"mock_driver","Config":{"run_for":"10m"},"Env":{"MARKER":"%s"},
                    "Resources":{"CPU":20,"MemoryMB":16}}]}]}}""".formatted(jobId, marker);
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

    JsonNode stubIn(JsonNode list, String allocId) {
        for (JsonNode a : list) {
            if (allocId.equals(a.path("ID").asString())) {
                return a;
            }
        }
        throw new AssertionError(allocId + " not in " + list);
    }

    @Test
    void anAllocationNamesTheEvaluationThatPlacedItWithTheSameIndexesAndTimesOnEveryShape() throws Exception {
        JsonNode reg = send("PUT", "/v1/jobs", job("a"));
        String evalId = reg.path("EvalID").asString();
        await().atMost(Duration.ofSeconds(60)).until(() -> running().size() == 1);
        String allocId = running().getFirst();

        assertThat(get("/v1/job/" + jobId + "/evaluations").findValuesAsString("ID")).contains(evalId);
        // read until no change lands between the three reads (a task event moves ModifyIndex)
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            JsonNode full = get("/v1/allocation/" + allocId);
            JsonNode jobStub = stubIn(get("/v1/job/" + jobId + "/allocations"), allocId);
            JsonNode listStub = stubIn(get("/v1/allocations"), allocId);
            assertThat(full.path("EvalID").asString()).isEqualTo(evalId);
            for (JsonNode stub : List.of(jobStub, listStub)) {
                assertThat(stub.path("EvalID").asString()).isEqualTo(evalId);
                for (String f : List.of("CreateIndex", "ModifyIndex", "CreateTime", "ModifyTime")) {
                    assertThat(full.path(f).asLong()).as(f).isPositive();
                    assertThat(stub.path(f).asLong()).as(f).isEqualTo(full.path(f).asLong());
                }
            }
            // Nomad's AllocListStub, with the job version it was placed from
            assertThat(jobStub.has("Job")).isFalse();
            assertThat(jobStub.path("JobVersion").asLong()).isZero();
            assertThat(jobStub.path("JobType").asString()).isEqualTo("service");
        });
    }

    @Test
    void aRegisteredJobIsInTheDefaultNodePool() throws Exception {
        send("PUT", "/v1/jobs", job("a"));
        assertThat(get("/v1/job/" + jobId).path("NodePool").asString()).isEqualTo("default");
        assertThat(stubIn(get("/v1/jobs?prefix=" + jobId), jobId).path("NodePool").asString()).isEqualTo("default");
        assertThat(get("/v1/job/" + jobId + "/versions").path("Versions").get(0).path("NodePool").asString()).isEqualTo("default");
        // registering the same job again is no new version (its empty NodePool means the default pool)
        send("PUT", "/v1/jobs", job("a"));
        assertThat(get("/v1/job/" + jobId).path("Version").asLong()).isZero();
        assertThat(send("POST", "/v1/job/" + jobId + "/plan", job("a")).path("Diff").path("Type").asString()).isEqualTo("None");
    }

    @Test
    void aReplacedAllocationNamesItsReplacementAndTheReplacementItsEvaluation() throws Exception {
        send("PUT", "/v1/jobs", job("a"));
        await().atMost(Duration.ofSeconds(60)).until(() -> running().size() == 1);
        String old = running().getFirst();
        long oldModifyIndex = get("/v1/allocation/" + old).path("ModifyIndex").asLong();

        // a task change is destructive: a new allocation replaces the old one
        JsonNode update = send("PUT", "/v1/jobs", job("b"));
        await().atMost(Duration.ofSeconds(60)).until(() -> running().size() == 1 && !running().contains(old));
        String next = running().getFirst();

        JsonNode oldAlloc = get("/v1/allocation/" + old);
        JsonNode nextAlloc = get("/v1/allocation/" + next);
        assertThat(oldAlloc.path("NextAllocation").asString()).isEqualTo(next);
        assertThat(nextAlloc.path("PreviousAllocation").asString()).isEqualTo(old);
        assertThat(nextAlloc.path("EvalID").asString()).isEqualTo(update.path("EvalID").asString());
        // setting NextAllocation is a change of the old allocation, seen after the replacement was created
        assertThat(oldAlloc.path("ModifyIndex").asLong()).isGreaterThan(oldModifyIndex)
                .isGreaterThanOrEqualTo(nextAlloc.path("CreateIndex").asLong());
        assertThat(stubIn(get("/v1/job/" + jobId + "/allocations"), old).path("NextAllocation").asString()).isEqualTo(next);
        assertThat(stubIn(get("/v1/allocations"), old).path("NextAllocation").asString()).isEqualTo(next);
    }
}
