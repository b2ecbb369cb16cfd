package dev.berth.api;

import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;

import dev.berth.config.BerthProperties;
import dev.berth.fingerprint.NodeRegistry;
import dev.berth.fingerprint.NodeStatus;
import dev.berth.fingerprint.TestNodes;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code /v1/agent/self} and {@code /v1/agent/health}: Nomad's lower-case shapes, secrets redacted. */
@WebMvcTest(AgentController.class)
@Import(AgentControllerTest.Nodes.class)
@TestPropertySource(properties = {
        "berth.acl.tokens[0].name=ops",
        "berth.acl.tokens[0].secret=s3cr3t-token-value",
        "berth.acl.tokens[0].scope=write"
})
class AgentControllerTest {

    @TestConfiguration
    @EnableConfigurationProperties(BerthProperties.class)
    static class Nodes {
        @Bean
        NodeRegistry nodeRegistry() {
            return TestNodes.registry(Clock.fixed(TestNodes.T0, ZoneOffset.UTC));
        }
    }

    @Autowired
    MockMvcTester mvc;

    @Autowired
    NodeRegistry registry;

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(MvcTestResult result) throws Exception {
        return JsonMapper.builder().build().readValue(result.getResponse().getContentAsString(), Map.class);
    }

    @Test
    @SuppressWarnings("unchecked")
    void selfHasConfigMemberAndStats() throws Exception {
        MvcTestResult result = mvc.get().uri("/v1/agent/self").exchange();

        assertThat(result).hasStatusOk();
        assertThat(result.getResponse().getContentAsString()).doesNotContain("s3cr3t-token-value");
        Map<String, Object> self = json(result);
        assertThat(self.keySet()).containsExactly("config", "member", "stats");

        Map<String, Object> member = (Map<String, Object>) self.get("member");
        assertThat(member.keySet()).containsExactly("Name", "Addr", "Port", "Tags", "Status", "ProtocolMin",
                "ProtocolMax", "ProtocolCur", "DelegateMin", "DelegateMax", "DelegateCur");
        assertThat(member).containsEntry("Name", "").containsEntry("Status", "none").containsEntry("Tags", null);

        Map<String, Map<String, String>> stats = (Map<String, Map<String, String>>) self.get("stats");
        assertThat(stats.get("client")).containsOnlyKeys("node_id", "known_servers", "num_allocations",
                "last_heartbeat", "heartbeat_ttl").containsEntry("node_id", registry.current().id());
        assertThat(stats.get("runtime")).containsKeys("kernel.name", "arch", "version", "max_procs", "goroutines",
                "cpu_count").containsEntry("kernel.name", "linux")
                .containsEntry("cpu_count", Integer.toString(Runtime.getRuntime().availableProcessors()));

        Map<String, Object> config = (Map<String, Object>) self.get("config");
        assertThat(config).containsEntry("Datacenter", "dc1").containsKeys("Client", "ACL", "Server");
        Map<String, Object> acl = (Map<String, Object>) config.get("ACL");
        assertThat(acl.get("Tokens")).isEqualTo(java.util.List.of(Map.of("Name", "ops", "Secret", "<redacted>", "Scope", "write")));
    }

    @Test
    void clientIsUnhealthyWhileInitializingAndHealthyWhenReady() throws Exception {
        registry.update(n -> n.withStatus(NodeStatus.INITIALIZING, TestNodes.T0));

        MvcTestResult initializing = mvc.get().uri("/v1/agent/health").exchange();
        assertThat(initializing).hasStatus(HttpStatus.INTERNAL_SERVER_ERROR);
        assertThat(json(initializing)).isEqualTo(Map.of("client", Map.of("ok", false, "message", "node is initializing")));

        registry.markReady();

        MvcTestResult ready = mvc.get().uri("/v1/agent/health").exchange();
        assertThat(ready).hasStatusOk();
        assertThat(ready.getResponse().getContentAsString()).isEqualTo("{\"client\":{\"ok\":true,\"message\":\"ok\"}}");
    }

    @Test
    void serverTypeIsNotEnabled() throws Exception {
        registry.markReady();

        MvcTestResult server = mvc.get().uri("/v1/agent/health?type=server").exchange();
        assertThat(server).hasStatus(HttpStatus.INTERNAL_SERVER_ERROR);
        assertThat(json(server)).isEqualTo(Map.of("server", Map.of("ok", false, "message", "server not enabled")));

        MvcTestResult both = mvc.get().uri("/v1/agent/health?type=client&type=server").exchange();
        assertThat(both).hasStatus(HttpStatus.INTERNAL_SERVER_ERROR);
        assertThat(json(both)).containsOnlyKeys("client", "server");
    }

    @Test
    void unknownTypeIsABadRequest() throws Exception {
        MvcTestResult result = mvc.get().uri("/v1/agent/health?type=bogus").exchange();

        assertThat(result).hasStatus(HttpStatus.BAD_REQUEST).hasContentType("application/problem+json");
    }
}
