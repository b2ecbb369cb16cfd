package dev.berth.api;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.berth.fingerprint.NodeRegistry;
import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Blocking queries on a real agent: the node wakes on a node change, the allocation list on a new allocation. */
@AgentIntegrationTest
class BlockingQueriesApiTest {

    @LocalServerPort
    int port;

    @Autowired
    NodeRegistry registry;

    @Test
    void nodeQueryWaitsForTheNextNodeChange() throws Exception {
        String id = registry.current().id();
        HttpResponse<String> now = Http.get(port, "/v1/node/" + id);
        long index = Long.parseLong(now.headers().firstValue("X-Nomad-Index").orElseThrow());
        assertThat(index).isEqualTo(registry.current().modifyIndex());
        assertThat(now.headers().firstValue("X-Nomad-KnownLeader")).contains("true");
        assertThat(now.headers().firstValue("X-Nomad-LastContact")).contains("0");

        CompletableFuture<HttpResponse<String>> blocked = CompletableFuture.supplyAsync(() -> get("/v1/node/" + id + "?index=" + index + "&wait=2m"));
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !blocked.isDone());
        registry.addEvent("Test", "blocking query wake-up", Map.of());
        HttpResponse<String> woke = blocked.get(60, TimeUnit.SECONDS);
        assertThat(Long.parseLong(woke.headers().firstValue("X-Nomad-Index").orElseThrow())).isGreaterThan(index);
        assertThat(woke.body()).contains("blocking query wake-up");
    }

    @Test
    void allocationListWaitsForANewAllocation() throws Exception {
        HttpResponse<String> now = Http.get(port, "/v1/allocations");
        long index = Long.parseLong(now.headers().firstValue("X-Nomad-Index").orElseThrow());
        CompletableFuture<HttpResponse<String>> blocked = CompletableFuture.supplyAsync(() -> get("/v1/allocations?index=" + index + "&wait=2m"));
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !blocked.isDone());
        String alloc = java.util.UUID.randomUUID().toString();
        HttpResponse<String> put = Http.send(port, "PUT", "/v1/client/allocation/" + alloc, """
                {"ID":"%s","Name":"b.g[0]","JobID":"b","TaskGroup":"g","Job":{"ID":"b","Type":"batch","TaskGroups":[{"Name":"g",
                 "Tasks":[{"Name":"t","Driver":"mock_driver","Config":{"run_for":"1ms"},"Resources":{"CPU":10,"MemoryMB":16}}]}]}}"""
                .formatted(alloc));
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        try {
            HttpResponse<String> woke = blocked.get(60, TimeUnit.SECONDS);
            assertThat(Long.parseLong(woke.headers().firstValue("X-Nomad-Index").orElseThrow())).isGreaterThan(index);
            assertThat(woke.body()).contains(alloc);
        } finally {
            Http.send(port, "DELETE", "/v1/client/allocation/" + alloc, null);
        }
    }

    @Test
    void badWaitIsNomads400AndAnswersAtOnce() throws Exception {
        HttpResponse<String> r = Http.get(port, "/v1/allocations?index=1&wait=soon");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("Invalid wait time");
    }

    private HttpResponse<String> get(String path) {
        try {
            return Http.get(port, path);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
