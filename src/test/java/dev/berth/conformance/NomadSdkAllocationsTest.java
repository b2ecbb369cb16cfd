package dev.berth.conformance;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.hashicorp.nomad.apimodel.AllocFileInfo;
import com.hashicorp.nomad.apimodel.Allocation;
import com.hashicorp.nomad.apimodel.AllocationListStub;
import com.hashicorp.nomad.apimodel.AllocStopResponse;
import com.hashicorp.nomad.javasdk.ClientApi;
import com.hashicorp.nomad.javasdk.ErrorResponseException;
import com.hashicorp.nomad.javasdk.NomadApiClient;
import com.hashicorp.nomad.javasdk.QueryOptions;
import com.hashicorp.nomad.javasdk.ServerQueryResponse;
import com.hashicorp.nomad.javasdk.ServerResponse;
import com.hashicorp.nomad.javasdk.WaitStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * HashiCorp's Nomad Java SDK against a real agent, one test per SDK call on allocations (server-style reads, blocking
 * queries, stop, signal) and on the client endpoints it reaches through an allocation (stats, fs, logs, GC). Tasks
 * are real raw_exec processes; the agent runs in its own JVM ({@link SdkAgent}).
 */
class NomadSdkAllocationsTest {

    int port;

    NomadApiClient nomad;
    final List<String> created = new ArrayList<>();

    @BeforeEach
    void connect() throws Exception {
        port = SdkAgent.get().port;
        nomad = new NomadApiClient("http://127.0.0.1:" + port);
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (String id : created) {
            Http.send(port, "DELETE", "/v1/client/allocation/" + id, null);
        }
        nomad.close();
    }

    private String running() throws Exception {
        String id = SdkSupport.newId();
        created.add(SdkSupport.submit(port, SdkSupport.rawExecAlloc(id, "", ""), id));
        waitUntilRunning(id);
        return id;
    }

    /** The SDK's own wait-until-running idiom: a blocking poll with a predicate. */
    private Allocation waitUntilRunning(String id) throws Exception {
        return nomad.getAllocationsApi().info(id, QueryOptions.pollRepeatedlyUntil(
                r -> "running".equals(r.getValue().getClientStatus()), WaitStrategy.waitForSeconds(60))).getValue();
    }

    private ClientApi client() throws Exception {
        return nomad.getClientApi(nomad.getNodesApi().info(nomad.getAgentApi().self().getValue().getStats()
                .get("client").get("node_id")).getValue());
    }

    @Test
    void allocationsInfoPollsUntilRunningWithNomadHeaders() throws Exception {
        String id = SdkSupport.newId();
        created.add(SdkSupport.submit(port, SdkSupport.rawExecAlloc(id, "", ""), id));

        ServerQueryResponse<Allocation> r = nomad.getAllocationsApi().info(id, QueryOptions.pollRepeatedlyUntil(
                x -> "running".equals(x.getValue().getClientStatus()), WaitStrategy.waitForSeconds(60)));

        Allocation a = r.getValue();
        assertThat(a.getId()).isEqualTo(id);
        assertThat(a.getClientStatus()).isEqualTo("running");
        assertThat(a.getTaskStates().get("main").getState()).isEqualTo("running");
        assertThat(r.hadKnownLeader()).isTrue();
        assertThat(r.getMillisSinceLastContact()).isZero();
        assertThat(r.getIndex()).isEqualTo(a.getModifyIndex());
        assertThat(a.getCreateIndex()).isPositive().isLessThanOrEqualTo(a.getModifyIndex());
        assertThat(a.getAllocModifyIndex()).as("the submitter's own version, as sent").isEqualTo(BigInteger.ONE);
    }

    @Test
    void allocationsInfoReturnsSubmittedAndServerFilledFields() throws Exception {
        String id = SdkSupport.newId();
        String body = SdkSupport.rawExecAlloc(id, ",\"CreateTime\":42,\"FutureField\":{\"X\":1}",
                ",\"Priority\":70,\"Datacenters\":[\"east\"],\"Version\":3,\"SubmitTime\":1700000000000000000");
        created.add(SdkSupport.submit(port, body, id));

        Allocation a = waitUntilRunning(id);
        assertThat(a.getEvalId()).isEqualTo("eval-1234");
        assertThat(a.getJob().getPriority()).isEqualTo(70);
        assertThat(a.getJob().getDatacenters()).containsExactly("east");
        assertThat(a.getJob().getVersion()).isEqualTo(BigInteger.valueOf(3));
        assertThat(a.getJob().getSubmitTime()).isEqualTo(1700000000000000000L);
        assertThat(a.getJob().getRegion()).isEqualTo("global");
        assertThat(a.getJob().getNamespace()).isEqualTo("default");
        assertThat(a.getJob().getStatus()).isEqualTo("running");
        assertThat(a.getNamespace()).isEqualTo("default");
        assertThat(a.getNodeName()).isNotEmpty();
        assertThat(a.getNodeId()).isNotEmpty();
        assertThat(a.getCreateTime()).isPositive().isNotEqualTo(42);
        assertThat(a.getModifyTime()).isGreaterThanOrEqualTo(a.getCreateTime());
        var task = a.getJob().getTaskGroups().getFirst().getTasks().getFirst();
        assertThat(task.getKillTimeout()).isEqualTo(5_000_000_000L);
        assertThat(task.getLogConfig().getMaxFiles()).isEqualTo(10);
        assertThat(task.getLogConfig().getMaxFileSizeMb()).isEqualTo(10);
        // unknown fields survive the round trip
        assertThat(nomad.getAllocationsApi().info(id).getRawEntity()).contains("\"FutureField\":{\"X\":1}");
    }

    @Test
    void allocationsInfoBlocksUntilTheAllocationChanges() throws Exception {
        String id = running();
        ServerQueryResponse<Allocation> now = nomad.getAllocationsApi().info(id);

        CompletableFuture<ServerQueryResponse<Allocation>> blocked = CompletableFuture.supplyAsync(() -> {
            try {
                return nomad.getAllocationsApi().info(id, new QueryOptions<Allocation>().setIndex(now.getIndex())
                        .setWaitStrategy(WaitStrategy.waitForSeconds(120)));
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        await().during(java.time.Duration.ofMillis(300)).atMost(java.time.Duration.ofSeconds(5))
                .until(() -> !blocked.isDone());

        nomad.getAllocationsApi().signal(id, "SIGUSR1", "main");
        ServerQueryResponse<Allocation> woke = blocked.get(60, TimeUnit.SECONDS);
        assertThat(woke.getIndex()).isGreaterThan(now.getIndex());
        assertThat(woke.getValue().getTaskStates().get("main").getEvents())
                .anyMatch(e -> "Signaling".equals(e.getType()));
    }

    @Test
    void allocationsInfoOfAnUnknownAllocationIsNomads404() {
        assertThatThrownBy(() -> nomad.getAllocationsApi().info("no-such-alloc"))
                .isInstanceOfSatisfying(ErrorResponseException.class, e -> {
                    assertThat(e.getServerErrorCode()).isEqualTo(404);
                    assertThat(e.getServerErrorMessage()).isEqualTo("alloc not found");
                });
    }

    @Test
    void allocationsListAndPrefix() throws Exception {
        String id = running();
        ServerQueryResponse<List<AllocationListStub>> all = nomad.getAllocationsApi().list();
        assertThat(all.getIndex()).isPositive();
        assertThat(all.getValue()).anySatisfy(s -> {
            assertThat(s.getId()).isEqualTo(id);
            assertThat(s.getJobId()).isEqualTo("sdk");
            assertThat(s.getJobType()).isEqualTo("service");
            assertThat(s.getClientStatus()).isEqualTo("running");
            assertThat(s.getTaskStates()).containsKey("main");
            assertThat(s.getModifyIndex()).isPositive();
        });
        List<AllocationListStub> prefixed = nomad.getAllocationsApi().list(id.substring(0, 8)).getValue();
        assertThat(prefixed).extracting(AllocationListStub::getId).containsExactly(id);
    }

    @Test
    void nodesAllocations() throws Exception {
        String id = running();
        String nodeId = nomad.getNodesApi().list().getValue().getFirst().getId();
        ServerQueryResponse<List<AllocationListStub>> r = nomad.getNodesApi().allocations(nodeId);
        assertThat(r.hadKnownLeader()).isTrue();
        assertThat(r.getValue()).anySatisfy(s -> {
            assertThat(s.getId()).isEqualTo(id);
            assertThat(s.getNodeId()).isEqualTo(nodeId);
        });
    }

    @Test
    void allocationsStopStopsAsAnUpdate() throws Exception {
        String id = running();
        ServerResponse<AllocStopResponse> stop = nomad.getAllocationsApi().stop(id);
        assertThat(stop.getValue().getEvalId()).isNotEmpty();
        assertThat(stop.getIndex()).isPositive();

        Allocation after = nomad.getAllocationsApi().info(id, QueryOptions.pollRepeatedlyUntil(
                r -> "complete".equals(r.getValue().getClientStatus()), WaitStrategy.waitForSeconds(60))).getValue();
        assertThat(after.getDesiredStatus()).isEqualTo("stop");
        assertThat(after.getTaskStates().get("main").getState()).isEqualTo("dead");
        assertThat(after.getAllocModifyIndex()).as("the next submitted version").isEqualTo(BigInteger.TWO);
        assertThat(after.getModifyIndex()).isGreaterThan(after.getCreateIndex());
        assertThat(stop.getIndex()).isGreaterThan(after.getCreateIndex());
    }

    @Test
    void allocationsSignal() throws Exception {
        String id = running();
        nomad.getAllocationsApi().signal(id, "SIGHUP", "main");
        Allocation a = nomad.getAllocationsApi().info(id, QueryOptions.pollRepeatedlyUntil(
                r -> r.getValue().getTaskStates().get("main").getState().equals("dead"), WaitStrategy.waitForSeconds(60)))
                .getValue();
        assertThat(a.getTaskStates().get("main").getEvents()).anyMatch(e -> "Signaling".equals(e.getType()));
    }

    @Test
    void clientStatsOfAnAllocation() throws Exception {
        String id = running();
        ClientApi c = client();
        // the collector samples every second: the first sample of a task that just started may not be there yet
        await().atMost(java.time.Duration.ofSeconds(30)).untilAsserted(() -> {
            var usage = c.stats(id).getValue();
            assertThat(usage.getTasks()).containsKey("main");
            assertThat(usage.getTasks().get("main").getResourceUsage().getMemoryStats().getRss()).isPositive();
        });
    }

    @Test
    void clientFilesystemCatReadAtLsStat() throws Exception {
        String id = running();
        ClientApi c = client();
        await().atMost(java.time.Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(c.cat(id, "alloc/logs/main.stdout.0").getValue()).isEqualTo("hello\n"));
        assertThat(c.readAt(id, "alloc/logs/main.stdout.0", 1, 3).getValue()).isEqualTo("ell");
        List<AllocFileInfo> ls = c.ls(id, "alloc/logs").getValue();
        assertThat(ls).extracting(AllocFileInfo::getName).contains("main.stdout.0", "main.stderr.0");
        AllocFileInfo stat = c.stat(id, "alloc/logs/main.stdout.0").getValue();
        assertThat(stat.getIsDir()).isFalse();
        assertThat(stat.getSize()).isEqualTo(6);
    }

    @Test
    void clientLogs() throws Exception {
        String id = running();
        ClientApi c = client();
        await().atMost(java.time.Duration.ofSeconds(30)).untilAsserted(() -> {
            try (var in = c.logs(id, "main", false, "stderr")) {
                assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("oops\n");
            }
        });
    }

    @Test
    void clientGarbageCollectOfAStoppedAllocation() throws Exception {
        String id = running();
        nomad.getAllocationsApi().stop(id);
        nomad.getAllocationsApi().info(id, QueryOptions.pollRepeatedlyUntil(
                r -> "complete".equals(r.getValue().getClientStatus()), WaitStrategy.waitForSeconds(60)));
        ClientApi c = client();
        await().atMost(java.time.Duration.ofSeconds(30)).ignoreExceptions()
                .until(() -> c.garbageCollect(id) != null);
        assertThatThrownBy(() -> nomad.getAllocationsApi().info(id))
                .isInstanceOfSatisfying(ErrorResponseException.class, e -> assertThat(e.getServerErrorCode()).isEqualTo(404));
        created.remove(id);
    }

    @Test
    void clientGarbageCollectOfARunningAllocationIsRefusedWithNomadsText() throws Exception {
        String id = running();
        assertThatThrownBy(() -> client().garbageCollect(id))
                .isInstanceOfSatisfying(ErrorResponseException.class, e ->
                        assertThat(e.getServerErrorMessage()).isEqualTo(
                                "No such allocation on client, or allocation not eligible for GC"));
    }
}
