package dev.berth.fingerprint;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.berth.config.NodeIdentity;
import dev.berth.support.AgentIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/** The full agent: fingerprinted node, endpoints and readiness over real HTTP. */
@AgentIntegrationTest
class FingerprintIntegrationTest {

    @LocalServerPort
    int port;

    @Autowired
    NodeIdentity identity;

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
