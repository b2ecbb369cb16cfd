package dev.berth.restore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A restarted agent drains a recovered task's log FIFO on: no line written while it was down is lost. */
class LogsAcrossAgentRestartTest {

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "agent stopped with {0}")
    @ValueSource(strings = {"SIGTERM", "SIGKILL"})
    void ticksWrittenWhileTheAgentIsDownReachTheLogAfterItsRestart(String how) throws Exception {
        Path data = tmp.resolve("data");
        String id = UUID.randomUUID().toString();
        String task = AgentRestartTest.shTask("tick", "i=0; while true; do echo tick$i; i=$((i+1)); sleep 0.05; done");
        try (AgentProcess agent = new AgentProcess(data)) {
            agent.start();
            agent.put(id, AgentRestartTest.alloc(id, "service", task, null));
            Path log = data.resolve("alloc").resolve(id).resolve("alloc/logs/tick.stdout.0");
            await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(log) && Files.readString(log).contains("tick5\n"));
            if (how.equals("SIGTERM")) {
                agent.stopGracefully();
            } else {
                agent.kill();
            }
            long downAt = Files.size(log);
            agent.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> Files.size(log) > downAt + 200);
            String[] lines = Files.readString(log).split("\n");
            for (int i = 0; i < lines.length - 1; i++) {
                assertThat(lines[i]).isEqualTo("tick" + i);
            }
        }
    }
}
