package dev.berth.api;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cluster endpoints a third-party Nomad client reads from one agent acting as a region of one (the Raft
 * configuration, consistent with {@code /v1/status/leader}; volumes), and the 501s of the ones it does not answer, each
 * saying what the agent lacks.
 */
@AgentIntegrationTest
class ClusterEndpointsAgentTest {

    @LocalServerPort
    int port;

    final JsonMapper json = JsonMapper.builder().build();

    HttpResponse<String> call(String method, String path, String body) throws Exception {
        return Http.send(port, method, path, body);
    }

    JsonNode ok(String method, String path, String body) throws Exception {
        HttpResponse<String> r = call(method, path, body);
        assertThat(r.statusCode()).as(method + " " + path + " " + r.body()).isEqualTo(200);
        return json.readTree(r.body());
    }

    @Test
    void theRaftConfigurationIsThisAgentAsTheOneVoterAndLeader() throws Exception {
        String leader = json.readTree(call("GET", "/v1/status/leader", null).body()).asString();
        JsonNode raft = ok("GET", "/v1/operator/raft/configuration", null);
        assertThat(raft.path("Servers")).hasSize(1);
        JsonNode server = raft.path("Servers").get(0);
        assertThat(server.path("Address").asString()).isEqualTo(leader);
        assertThat(server.path("Leader").asBoolean()).isTrue();
        assertThat(server.path("Voter").asBoolean()).isTrue();
        assertThat(server.path("ID").asString()).isNotEmpty();
        assertThat(server.path("RaftProtocol").asString()).isEqualTo("3");
        assertThat(raft.path("Index").asLong()).isPositive();
        assertThat(ok("GET", "/v1/volumes", null)).isEmpty();
    }

    @Test
    void aNotImplementedEndpointSaysWhatIsMissingNotThatThereIsNoScheduler() throws Exception {
        for (String path : new String[] {"/v1/node/x/evaluate", "/v1/node/x/purge",
                "/v1/agent/schedulers", "/v1/deployment/unblock/x", "/v1/operator/autopilot/configuration", "/v1/volume/csi/v1", "/v1/acl/tokens"}) {
            HttpResponse<String> r = call("POST", path, "{}");
            assertThat(r.statusCode()).as(path).isEqualTo(501);
            assertThat(r.body()).as(path).doesNotContainIgnoringCase("no scheduler").doesNotContain("a scheduler to")
                    .doesNotContain("Raft or");
        }
    }
}
