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
 * A job update that only changes a task's CPU and memory, against a running agent with a real raw_exec task: the same
 * allocation keeps running (one {@code Started}, a {@code Resized} event) and its {@code AllocatedResources} show the new
 * size; with the task meta {@code berth.resize = "restart"} the same kind of update replaces the allocation, as Nomad does.
 */
@AgentIntegrationTest
class JobResizeAgentTest {

    @LocalServerPort
    int port;

    String jobId;

    @BeforeEach
    void id() {
        jobId = "resize-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterEach
    void cleanUp() throws Exception {
        Http.send(port, "DELETE", "/v1/job/" + jobId + "?purge=true", null);
    }

    String job(int cpu, int memory, String meta) {
        return """
                {"Job":{"ID":"%s","Name":"%s","Type":"service","Datacenters":["dc1"],"TaskGroups":[{"Name":"app","Count":1,
                  "Tasks":[{"Name":"server","Driver":"raw_exec","Config":{"command":"/bin/sleep","args":["600"]},%s
                    "Resources":{"CPU":%d,"MemoryMB":%d}}]}]}}""".formatted(jobId, jobId, meta, cpu, memory);
    }

    List<JsonNode> live() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode a : Http.ok(port, "GET", "/v1/job/" + jobId + "/allocations", null)) {
            if ("running".equals(a.path("ClientStatus").asString()) && "run".equals(a.path("DesiredStatus").asString())) {
                out.add(Http.ok(port, "GET", "/v1/allocation/" + a.path("ID").asString(), null));
            }
        }
        return out;
    }

    static List<String> types(JsonNode alloc) {
        List<String> types = new ArrayList<>();
        alloc.path("TaskStates").path("server").path("Events").forEach(e -> types.add(e.path("Type").asString()));
        return types;
    }

    @Test
    void aCpuAndMemoryChangeResizesTheRunningAllocationAndAnOptOutReplacesIt() throws Exception {
        Http.ok(port, "PUT", "/v1/jobs", job(20, 16, ""));
        await().atMost(Duration.ofSeconds(60)).until(() -> live().size() == 1);
        String id = live().getFirst().path("ID").asString();

        Http.ok(port, "PUT", "/v1/jobs", job(40, 32, ""));

        await().atMost(Duration.ofSeconds(60)).until(() -> live().size() == 1 && types(live().getFirst()).contains("Resized"));
        JsonNode alloc = live().getFirst();
        assertThat(alloc.path("ID").asString()).isEqualTo(id);
        assertThat(types(alloc)).containsOnlyOnce("Started").doesNotContain("Terminated", "Killing");
        JsonNode allocated = alloc.path("AllocatedResources").path("Tasks").path("server");
        assertThat(allocated.path("Cpu").path("CpuShares").asLong()).isEqualTo(40);
        assertThat(allocated.path("Memory").path("MemoryMB").asLong()).isEqualTo(32);

        Http.ok(port, "PUT", "/v1/jobs", job(40, 48, "\"Meta\":{\"berth.resize\":\"restart\"},"));

        await().atMost(Duration.ofSeconds(60)).until(() -> live().size() == 1 && !live().getFirst().path("ID").asString().equals(id));
        JsonNode replacement = live().getFirst();
        assertThat(replacement.path("PreviousAllocation").asString()).isEqualTo(id);
        assertThat(replacement.path("AllocatedResources").path("Tasks").path("server").path("Memory").path("MemoryMB").asLong())
                .isEqualTo(48);
    }
}
