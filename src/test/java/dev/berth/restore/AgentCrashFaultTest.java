package dev.berth.restore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 7 fault test: the agent is SIGKILLed at a random moment while allocations are being submitted and started, then
 * started again on the same data dir. After every restart each allocation the agent knows has exactly one live process for
 * its running task, and no process runs that no allocation accounts for (orphans are killed, nothing runs twice).
 *
 * <p>Size: {@code -Dberth.fault.rounds} kill rounds (default 3); round {@code r} (from 0) submits {@code per-round + r × growth}
 * allocations concurrently ({@code -Dberth.fault.per-round}, default 12; {@code -Dberth.fault.growth}, default 0), all alive
 * at the end. In {@code mvn verify} it runs 3 × 12; {@code .ci/run} runs it again with fixed seeds, 4 rounds of 10, 20, 30
 * and 40 (100 allocations), while a CPU hog runs beside it. The seed is logged; {@code -Dberth.fault.seed=…}
 * replays a run.
 */
class AgentCrashFaultTest {

    static final int ROUNDS = Integer.getInteger("berth.fault.rounds", 3);
    static final int PER_ROUND = Integer.getInteger("berth.fault.per-round", 12);
    static final int GROWTH = Integer.getInteger("berth.fault.growth", 0);
    private static final Logger log = LoggerFactory.getLogger(AgentCrashFaultTest.class);

    @TempDir
    Path tmp;

    @Test
    void killedAtRandomPointsWhileAllocsStartEveryAllocHasExactlyOneProcess() throws Exception {
        long seed = Long.getLong("berth.fault.seed", System.nanoTime());
        log.info("fault test seed={}", seed);
        Random random = new Random(seed);
        Path data = tmp.resolve("data");
        try (AgentProcess agent = new AgentProcess(data); ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            agent.start();
            for (int round = 0; round < ROUNDS; round++) {
                for (int i = 0; i < PER_ROUND + round * GROWTH; i++) {
                    String id = UUID.randomUUID().toString();
                    pool.submit(() -> {
                        try {
                            agent.put(id, AgentRestartTest.alloc(id, "service",
                                    AgentRestartTest.shTask("t", "exec sleep 100000"), null));
                        } catch (Exception e) {
                            // the agent may be killed mid-request
                        }
                        return null;
                    });
                }
                long killAfter = random.nextLong(1500);
                await().pollDelay(Duration.ofMillis(killAfter)).atMost(Duration.ofMillis(killAfter + 1000)).until(() -> true);
                agent.kill();
                log.info("round {}: killed the agent {} ms into the submissions; live shims={}", round, killAfter, agent.shims().size());
                agent.start();
                assertExactlyOneProcessPerKnownAlloc(agent, seed);
            }
        }
    }

    private static void assertExactlyOneProcessPerKnownAlloc(AgentProcess agent, long seed) throws Exception {
        JsonNode list = agent.allocs();
        Set<String> known = new HashSet<>();
        for (JsonNode a : list) {
            known.add(a.path("ID").asString());
        }
        // Every known alloc gets its task running (reattached, or started now when the crash came before its start) within
        // 45 s of the restarted agent accepting traffic.
        await().atMost(Duration.ofSeconds(45)).until(() -> {
            for (JsonNode a : agent.allocs()) {
                if (!"running".equals(a.path("ClientStatus").asString())) {
                    return false;
                }
            }
            return true;
        });
        Map<String, Integer> perAlloc = new HashMap<>();
        List<AgentProcess.Shim> shims = agent.shims();
        for (AgentProcess.Shim s : shims) {
            String name = Path.of(s.exitFile()).getFileName().toString();
            perAlloc.merge(name.substring(0, 36), 1, Integer::sum);
        }
        assertThat(perAlloc.keySet()).as("no orphan process (seed %d)", seed).isSubsetOf(known);
        for (String id : known) {
            assertThat(perAlloc.getOrDefault(id, 0)).as("processes of alloc %s (seed %d)", id, seed).isEqualTo(1);
        }
        assertThat(Files.exists(agent.dataDir)).isTrue();
    }
}
