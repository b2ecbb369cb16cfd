package dev.berth.api;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
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

/**
 * Blocking queries on a real agent: the node wakes on a node change, the allocation list on a new allocation, the job
 * list on a new job; every blocking endpoint parses {@code wait} and answers the headers alike.
 */
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

    /**
     * Job, evaluation, allocation and node reads are one kind of blocking query: a Go duration as {@code wait} everywhere
     * ({@code 1m30s} was refused on the job endpoints), the same headers ({@code KnownLeader} was false there) and the
     * same 400 for a wait that is not a duration.
     */
    @Test
    void jobAndAllocationQueriesAgreeOnWaitAndHeaders() throws Exception {
        for (String path : List.of("/v1/jobs", "/v1/evaluations", "/v1/allocations", "/v1/node/" + registry.current().id())) {
            HttpResponse<String> r = Http.get(port, path + "?wait=1m30s");
            assertThat(r.statusCode()).as(path + " " + r.body()).isEqualTo(200);
            assertThat(r.headers().firstValue("X-Nomad-KnownLeader")).as(path).contains("true");
            assertThat(r.headers().firstValue("X-Nomad-LastContact")).as(path).contains("0");
            assertThat(Long.parseLong(r.headers().firstValue("X-Nomad-Index").orElseThrow())).as(path).isPositive();
            HttpResponse<String> bad = Http.get(port, path + "?index=1&wait=soon");
            assertThat(bad.statusCode()).as(path).isEqualTo(400);
            assertThat(bad.body()).as(path).contains("Invalid wait time");
        }
    }

    @Test
    void jobListWithAGoWaitWaitsForANewJob() throws Exception {
        HttpResponse<String> now = Http.get(port, "/v1/jobs");
        long index = Long.parseLong(now.headers().firstValue("X-Nomad-Index").orElseThrow());
        CompletableFuture<HttpResponse<String>> blocked = CompletableFuture.supplyAsync(() -> get("/v1/jobs?index=" + index + "&wait=1m30s"));
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !blocked.isDone());
        String job = "blocking-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        try {
            HttpResponse<String> put = Http.send(port, "PUT", "/v1/jobs", """
                    {"Job":{"ID":"%s","Name":"%s","Type":"batch","Datacenters":["dc1"],"TaskGroups":[{"Name":"g","Count":1,
                     "Tasks":[{"Name":"t","Driver":"mock_driver","Config":{"run_for":"1ms"},"Resources":{"CPU":10,"MemoryMB":16}}]}]}}"""
                    .formatted(job, job));
            assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
            assertThat(put.body()).contains("\"KnownLeader\":true");
            HttpResponse<String> woke = blocked.get(60, TimeUnit.SECONDS);
            assertThat(woke.statusCode()).as(woke.body()).isEqualTo(200);
            assertThat(Long.parseLong(woke.headers().firstValue("X-Nomad-Index").orElseThrow())).isGreaterThan(index);
            assertThat(woke.headers().firstValue("X-Nomad-KnownLeader")).contains("true");
            assertThat(woke.body()).contains(job);
        } finally {
            Http.send(port, "DELETE", "/v1/job/" + job + "?purge=true", null);
        }
    }

    private HttpResponse<String> get(String path) {
        try {
            return Http.get(port, path);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
