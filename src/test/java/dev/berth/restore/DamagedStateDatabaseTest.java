package dev.berth.restore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 7: a damaged state database does not brick the node. The agent is SIGKILLed with tasks running, its H2 file is
 * overwritten with garbage, and a new agent must start: the file is quarantined (log line + metric), the agent runs on an
 * empty state, and the task processes it can no longer attribute are stopped.
 */
class DamagedStateDatabaseTest {

    @TempDir
    Path tmp;

    @Test
    void aGarbageStateFileIsQuarantinedAndUnattributableTasksAreStopped() throws Exception {
        Path data = tmp.resolve("data");
        try (AgentProcess agent = new AgentProcess(data)) {
            agent.start();
            for (int i = 0; i < 3; i++) {
                String id = UUID.randomUUID().toString();
                agent.put(id, AgentRestartTest.alloc(id, "service", AgentRestartTest.shTask("t", "exec sleep 100000"), null));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> agent.shims().size() == 3);
            agent.kill();
            Path db = data.resolve("state/berth.mv.db");
            byte[] garbage = new byte[(int) Files.size(db)];
            new Random(11).nextBytes(garbage);
            Files.write(db, garbage);

            agent.start();

            assertThat(agent.shims()).as("tasks no state accounts for are stopped").isEmpty();
            assertThat(agent.allocs()).isEmpty();
            try (var q = Files.list(data.resolve("state/quarantine"))) {
                Path moved = q.filter(p -> p.getFileName().toString().matches("berth-\\d{8}T\\d{6}\\.\\d{3}Z\\.mv\\.db")).findFirst().orElseThrow();
                assertThat(moved).hasBinaryContent(garbage);
            }
            assertThat(Files.readString(agent.log())).contains("STATE DATABASE DAMAGED");
            assertThat(agent.send("GET", "/actuator/prometheus", null).body()).contains("berth_state_quarantined 1.0");
            assertThat(agent.send("GET", "/v1/node/self", null).body()).contains("State database was damaged and quarantined");
            // and it works: a new alloc runs
            String id = UUID.randomUUID().toString();
            agent.put(id, AgentRestartTest.alloc(id, "service", AgentRestartTest.shTask("t", "exec sleep 100000"), null));
            await().atMost(Duration.ofSeconds(30)).until(() -> agent.shims().size() == 1);
        }
    }
}
