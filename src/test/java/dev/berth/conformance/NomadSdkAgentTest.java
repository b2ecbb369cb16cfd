package dev.berth.conformance;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.hashicorp.nomad.apimodel.Node;
import com.hashicorp.nomad.apimodel.NodeListStub;
import com.hashicorp.nomad.apimodel.RaftConfiguration;
import com.hashicorp.nomad.apimodel.RaftServer;
import com.hashicorp.nomad.javasdk.ErrorResponseException;
import com.hashicorp.nomad.javasdk.NomadApiClient;
import com.hashicorp.nomad.javasdk.NomadPredicates;
import com.hashicorp.nomad.javasdk.QueryOptions;
import com.hashicorp.nomad.javasdk.ServerQueryResponse;
import com.hashicorp.nomad.javasdk.WaitStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** HashiCorp's Nomad Java SDK against a real agent: node, agent, status, region and system calls. */
class NomadSdkAgentTest {

    int port;
    String nodeId;
    NomadApiClient nomad;

    @BeforeEach
    void connect() throws Exception {
        port = SdkAgent.get().port;
        nomad = new NomadApiClient("http://127.0.0.1:" + port);
        nodeId = new tools.jackson.databind.json.JsonMapper().readTree(Http.get(port, "/v1/agent/self").body())
                .path("stats").path("client").path("node_id").asString();
    }

    @AfterEach
    void close() throws Exception {
        nomad.close();
    }

    @Test
    void nodesInfoCarriesTheNodeIndex() throws Exception {
        String id = nodeId;
        ServerQueryResponse<Node> r = nomad.getNodesApi().info(id);
        assertThat(r.getValue().getId()).isEqualTo(id);
        assertThat(r.getValue().getStatus()).isEqualTo("ready");
        assertThat(r.getIndex()).isEqualTo(r.getValue().getModifyIndex());
        assertThat(r.hadKnownLeader()).isTrue();
        assertThat(r.getMillisSinceLastContact()).isZero();
    }

    /**
     * The SDK has no eligibility call and only the pre-0.8 drain toggle, so it reads what Nomad's endpoints set (a drain
     * is not started here: it would stop the allocations other SDK tests run on this shared agent).
     */
    @Test
    void nodesInfoCarriesTheSchedulingEligibility() throws Exception {
        try {
            Http.send(port, "PUT", "/v1/node/" + nodeId + "/eligibility", "{\"Eligibility\":\"ineligible\"}");
            Node ineligible = nomad.getNodesApi().info(nodeId).getValue();
            assertThat(ineligible.getSchedulingEligibility()).isEqualTo("ineligible");
            assertThat(ineligible.getDrainStrategy()).isNull();
        } finally {
            Http.send(port, "PUT", "/v1/node/" + nodeId + "/eligibility", "{\"Eligibility\":\"eligible\"}");
        }
        assertThat(nomad.getNodesApi().info(nodeId).getValue().getSchedulingEligibility()).isEqualTo("eligible");
        assertThat(nomad.getNodesApi().list().getValue()).singleElement()
                .satisfies(n -> assertThat(n.getSchedulingEligibility()).isEqualTo("eligible"));
    }

    @Test
    void nodesInfoWaitRunsOutWithTheSameIndex() throws Exception {
        String id = nodeId;
        ServerQueryResponse<Node> now = nomad.getNodesApi().info(id);
        long start = System.nanoTime();
        ServerQueryResponse<Node> r = nomad.getNodesApi().info(id, new QueryOptions<Node>().setIndex(now.getIndex())
                .setWaitStrategy(WaitStrategy.waitForMilliseconds(400)));
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(400));
        assertThat(r.getIndex()).isGreaterThanOrEqualTo(now.getIndex());
    }

    @Test
    void nodesInfoOfAnUnknownNodeIsNomads404() {
        assertThatThrownBy(() -> nomad.getNodesApi().info("nope"))
                .isInstanceOfSatisfying(ErrorResponseException.class, e -> {
                    assertThat(e.getServerErrorCode()).isEqualTo(404);
                    assertThat(e.getServerErrorMessage()).isEqualTo("node not found");
                });
    }

    @Test
    void nodesListWithTheReadyPredicate() throws Exception {
        String id = nodeId;
        String name = nomad.getNodesApi().info(id).getValue().getName();
        ServerQueryResponse<List<NodeListStub>> r = nomad.getNodesApi().list(QueryOptions.pollRepeatedlyUntil(
                NomadPredicates.responseValue(NomadPredicates.clientNodeIsReady(name)), WaitStrategy.waitForSeconds(30)));
        NodeListStub stub = r.getValue().getFirst();
        assertThat(stub.getId()).isEqualTo(id);
        assertThat(stub.getStatus()).isEqualTo("ready");
        assertThat(stub.getDatacenter()).isEqualTo("dc1");
        assertThat(stub.getAddress()).isEqualTo("127.0.0.1");
        assertThat(stub.getDrivers()).containsKey("raw_exec");
        assertThat(nomad.getNodesApi().list(id.substring(0, 4)).getValue()).hasSize(1);
    }

    @Test
    void agentHealthAndSelf() throws Exception {
        assertThat(nomad.getAgentApi().health().getValue().getClient().getOk()).isTrue();
        assertThat(nomad.getAgentApi().self().getValue().getStats().get("client").get("node_id"))
                .isEqualTo(nodeId);
    }

    @Test
    void agentMembersIsThisAgent() throws Exception {
        var members = nomad.getAgentApi().members().getValue();
        assertThat(members.getServerRegion()).isEqualTo("global");
        assertThat(members.getMembers()).singleElement().satisfies(m -> {
            assertThat(m.getStatus()).isEqualTo("alive");
            assertThat(m.getAddr()).isEqualTo("127.0.0.1");
            assertThat(m.getPort()).isEqualTo(port);
        });
    }

    @Test
    void agentServersIsEmptyAndCannotBeSet() throws Exception {
        assertThat(nomad.getAgentApi().servers().getValue()).isEmpty();
        assertThatThrownBy(() -> nomad.getAgentApi().setServers("127.0.0.1:4647"))
                .isInstanceOfSatisfying(ErrorResponseException.class, e -> {
                    assertThat(e.getServerErrorCode()).isEqualTo(501);
                    assertThat(e.getServerErrorMessage()).contains("without servers");
                });
    }

    @Test
    void statusLeaderAndPeersAreThisAgent() throws Exception {
        assertThat(nomad.getStatusApi().leader().getValue()).isEqualTo("127.0.0.1:" + port);
        assertThat(nomad.getStatusApi().peers().getValue()).containsExactly("127.0.0.1:" + port);
    }

    @Test
    void operatorRaftConfigurationIsThisAgentAsTheOneVoterAndLeader() throws Exception {
        RaftConfiguration raft = nomad.getOperatorApi().raftGetConfiguration().getValue();
        assertThat(raft.getServers()).hasSize(1);
        RaftServer server = raft.getServers().get(0);
        assertThat(server.getAddress()).isEqualTo(nomad.getStatusApi().leader().getValue());
        assertThat(server.getLeader()).isTrue();
        assertThat(server.getVoter()).isTrue();
    }

    @Test
    void regionsList() throws Exception {
        assertThat(nomad.getRegionsApi().list().getValue()).containsExactly("global");
    }

    @Test
    void systemGarbageCollect() throws Exception {
        assertThat(nomad.getSystemApi().garbageCollect().getRawEntity()).isEmpty();
    }

    @Test
    void clientHostStats() throws Exception {
        var stats = nomad.getClientApi(nomad.getNodesApi().info(nodeId).getValue()).stats().getValue();
        assertThat(stats.getMemory().getTotal()).isPositive();
        assertThat(stats.getCpu()).isNotEmpty();
    }

    @Test
    void agentMonitorStreamsTheAgentLog() throws Exception {
        String id = SdkSupport.newId();
        try (var frames = nomad.getAgentApi().monitorLocalAgent("INFO", false)) {
            // the agent logs an INFO line when it destroys an allocation
            SdkSupport.submit(port, SdkSupport.rawExecAlloc(id, "", ""), id);
            Http.send(port, "DELETE", "/v1/client/allocation/" + id, null);
            StringBuilder seen = new StringBuilder();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!seen.toString().contains("allocation destroyed: alloc=" + id) && System.nanoTime() < deadline && frames.hasNextFrame()) {
                byte[] data = frames.nextFrame().getData();
                if (data != null) {
                    seen.append(new String(data, StandardCharsets.UTF_8));
                }
            }
            assertThat(seen.toString()).contains("[INFO]", "allocation destroyed: alloc=" + id);
        }
    }
}
