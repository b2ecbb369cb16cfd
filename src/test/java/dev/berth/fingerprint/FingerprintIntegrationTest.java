package dev.berth.fingerprint;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.berth.config.NodeIdentity;
import dev.berth.driver.DriverFingerprint;
import dev.berth.driver.HealthState;
import dev.berth.driver.mock.MockDriver;
import dev.berth.support.AgentIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The full agent: fingerprinted node, endpoints and readiness over real HTTP. */
@AgentIntegrationTest
class FingerprintIntegrationTest {

    @LocalServerPort
    int port;

    @Autowired
    NodeIdentity identity;

    @Autowired
    MockDriver mockDriver;

    @Autowired
    NodeRegistry registry;

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(HttpResponse<String> response) {
        return JsonMapper.builder().build().readValue(response.body(), Map.class);
    }

    @Test
    @SuppressWarnings("unchecked")
    void nodeSelfIsFingerprintedAndReady() throws Exception {
        HttpResponse<String> response = get("/v1/node/self");

        assertThat(response.statusCode()).isEqualTo(200);
        Map<String, Object> node = json(response);
        assertThat(node).containsEntry("ID", identity.id()).containsEntry("Status", "ready")
                .containsEntry("Datacenter", "dc1");
        Map<String, String> attributes = (Map<String, String>) node.get("Attributes");
        assertThat(attributes).containsKeys("cpu.arch", "cpu.numcores", "cpu.frequency", "cpu.totalcompute",
                "cpu.usablecompute", "cpu.modelname", "cpu.reservablecores", "memory.totalbytes", "unique.hostname",
                "kernel.name", "kernel.version", "kernel.arch", "os.name", "os.version", "unique.storage.volume",
                "unique.storage.bytestotal", "unique.storage.bytesfree", "unique.network.ip-address",
                "os.cgroups.version", "os.signals", "berth.version", "nomad.version");
        Map<String, Object> resources = (Map<String, Object>) node.get("NodeResources");
        assertThat((Map<String, Object>) resources.get("Cpu")).containsEntry("TotalCpuCores",
                Integer.parseInt(attributes.get("cpu.numcores")));
        assertThat(((Map<String, Number>) resources.get("Memory")).get("MemoryMB").longValue())
                .isEqualTo(Long.parseLong(attributes.get("memory.totalbytes")) / (1024 * 1024));
        assertThat(((Map<String, Number>) resources.get("Disk")).get("DiskMB").longValue()).isPositive();
        assertThat(node.get("HTTPAddr")).isEqualTo("127.0.0.1:" + port);
    }

    @Test
    @SuppressWarnings("unchecked")
    void enabledDriversAreOnTheNode() throws Exception {
        Map<String, Object> node = json(get("/v1/node/self"));

        Map<String, Map<String, Object>> drivers = (Map<String, Map<String, Object>>) node.get("Drivers");
        assertThat(drivers.get("mock_driver")).containsEntry("Detected", true).containsEntry("Healthy", true)
                .containsEntry("HealthDescription", "Healthy");
        assertThat(drivers).containsKey("raw_exec");
        assertThat((Map<String, String>) node.get("Attributes")).containsEntry("driver.mock_driver", "1");

        String metrics = get("/actuator/prometheus").body();
        assertThat(metrics).contains("berth_node_ready 1.0", "berth_driver_healthy{driver=\"mock_driver\"} 1.0",
                "berth_driver_detected{driver=\"mock_driver\"} 1.0");
    }

    /** Seed 000 through the whole agent and its real mock_driver bean. */
    @Test
    void mockDriverTurningUnhealthyAndBackIsReflectedOnTheNode() {
        try {
            mockDriver.scriptHealth(new DriverFingerprint(HealthState.UNHEALTHY, "mock scripted unhealthy",
                    Map.of("driver.mock_driver", "true")));
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(registry.current().drivers().get("mock_driver").healthy()).isFalse());

            mockDriver.scriptHealth(null);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(registry.current().drivers().get("mock_driver").healthy()).isTrue();
                assertThat(registry.current().drivers().get("mock_driver").healthDescription()).isEqualTo("Healthy");
            });
            assertThat(registry.current().events()).filteredOn(e -> e.subsystem().equals("Driver"))
                    .extracting(NodeEvent::message).containsSubsequence("mock scripted unhealthy", "Healthy");
        } finally {
            // The context is shared with other integration tests: leave the mock healthy.
            mockDriver.scriptHealth(null);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void agentSelfCountsTheAllocationsTheClientHolds() throws Exception {
        String id = java.util.UUID.randomUUID().toString();
        String alloc = """
                {"ID":"%s","Name":"web.app[0]","JobID":"web","AllocModifyIndex":1,"DesiredStatus":"run","TaskGroup":"app",
                 "Job":{"ID":"web","Name":"web","Type":"service","TaskGroups":[{"Name":"app","Count":1,
                   "Tasks":[{"Name":"t","Driver":"mock_driver","Config":{"run_for":"60s"},"Resources":{"CPU":100,"MemoryMB":32}}]}]}}"""
                .formatted(id);
        int before = Integer.parseInt(((Map<String, Map<String, String>>) json(get("/v1/agent/self")).get("stats"))
                .get("client").get("num_allocations"));
        try {
            HttpResponse<String> put = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/v1/client/allocation/" + id)).header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString(alloc)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(put.statusCode()).as(put.body()).isEqualTo(200);

            Map<String, Map<String, String>> stats = (Map<String, Map<String, String>>) json(get("/v1/agent/self")).get("stats");
            assertThat(stats.get("client")).containsEntry("num_allocations", Integer.toString(before + 1));
        } finally {
            http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/client/allocation/" + id))
                    .DELETE().build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    @Test
    void readinessIsUpAfterTheFirstFingerprint() throws Exception {
        HttpResponse<String> response = get("/actuator/health/readiness");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response)).containsEntry("status", "UP");
    }

    @Test
    void agentHealthAndSelfAnswer() throws Exception {
        HttpResponse<String> health = get("/v1/agent/health");
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).isEqualTo("{\"client\":{\"ok\":true,\"message\":\"ok\"}}");

        HttpResponse<String> self = get("/v1/agent/self");
        assertThat(self.statusCode()).isEqualTo(200);
        assertThat(json(self)).containsOnlyKeys("config", "member", "stats");
    }
}
