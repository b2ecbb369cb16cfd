package dev.berth.restore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 14: {@code DELETE} (and a stop) answer before the tasks are dead. A real agent is stopped (SIGTERM, then
 * {@code kill -9}) while such a kill is still under way — the tasks ignore SIGTERM and have a long kill timeout — and the
 * next agent on the same data dir finishes it: processes gone, alloc dir removed, the destroyed allocation never comes back,
 * the stopped one stays stopped.
 */
class DestroyAcrossAgentStopTest {

    @TempDir
    Path tmp;

    /** Ignores SIGINT (raw_exec's default kill signal) and SIGTERM; only the SIGKILL at the end of its 60 s kill timeout ends it. */
    static String stubbornAlloc(String id) {
        return AgentRestartTest.alloc(id, "service", """
                {"Name":"t","Driver":"raw_exec","KillTimeout":60000000000,
                 "Config":{"command":"/bin/sh","args":["-c","trap '' TERM INT; while true; do sleep 0.2; done"]},
                 "Resources":{"CPU":20,"MemoryMB":16}}""", null);
    }

    @Test
    void aDestroyOrStopUnderWayWhenTheAgentStopsIsFinishedByTheNextStart() throws Exception {
        Path data = tmp.resolve("data");
        String a = UUID.randomUUID().toString();
        String b = UUID.randomUUID().toString();
        String c = UUID.randomUUID().toString();
        String keep = UUID.randomUUID().toString();
        try (AgentProcess agent = new AgentProcess(data)) {
            agent.start();
            for (String id : new String[] {a, b, c, keep}) {
                agent.put(id, stubbornAlloc(id));
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> shimAllocs(agent).containsAll(Set.of(a, b, c, keep)));

            // 1. DELETE, then SIGTERM while the task still resists its kill (DELETE waits for the kill, up to 90 s: it is
            // sent from another thread, and the agent stopped once the kill began)
            deleteInBackground(agent, a);
            await().atMost(Duration.ofSeconds(30)).until(() -> killingRecorded(agent, a));
            agent.stopGracefully();
            // A graceful stop may let the kill run to its end (the kill timeout is capped at 30 s); either way the next start
            // must show it destroyed, never running again.
            agent.start();
            assertDestroyed(agent, a);

            // 2. DELETE and a stop, then kill -9 while both kills are under way
            JsonNode current = agent.alloc(c);
            String stop = stubbornAlloc(c).replace("\"AllocModifyIndex\":1", "\"AllocModifyIndex\":" + (current.path("AllocModifyIndex").asLong() + 1))
                    .replace("\"DesiredStatus\":\"run\"", "\"DesiredStatus\":\"stop\"");
            agent.put(c, stop);
            await().atMost(Duration.ofSeconds(30)).until(() -> killingRecorded(agent, c));
            deleteInBackground(agent, b);
            await().atMost(Duration.ofSeconds(30)).until(() -> killingRecorded(agent, b));
            agent.kill();
            assertThat(shimAllocs(agent)).as("the kills were still under way when the agent was killed").contains(b, c);
            agent.start();
            assertDestroyed(agent, b);
            await().atMost(Duration.ofSeconds(45)).until(() -> !shimAllocs(agent).contains(c));
            JsonNode stopped = agent.alloc(c);
            assertThat(stopped.path("DesiredStatus").asString()).isEqualTo("stop");
            assertThat(stopped.path("TaskStates").path("t").path("State").asString()).isEqualTo("dead");
            assertThat(shimAllocs(agent)).as("the allocation nobody stopped still runs, once").contains(keep);
            assertThat(AgentProcess.shimsUnder(data).stream().filter(s -> s.exitFile().contains(keep)).count()).isEqualTo(1);
        }
    }

    private static void deleteInBackground(AgentProcess agent, String id) {
        Thread.ofVirtual().start(() -> {
            try {
                agent.send("DELETE", "/v1/client/allocation/" + id, null);
            } catch (Exception e) {
                // the agent stops meanwhile: expected
            }
        });
    }

    private static boolean killingRecorded(AgentProcess agent, String id) throws Exception {
        for (JsonNode e : agent.alloc(id).path("TaskStates").path("t").path("Events")) {
            if ("Killing".equals(e.path("Type").asString())) {
                return true;
            }
        }
        return false;
    }

    private static void assertDestroyed(AgentProcess agent, String id) {
        await().atMost(Duration.ofSeconds(45)).untilAsserted(() -> {
            assertThat(shimAllocs(agent)).as("task processes of %s", id).doesNotContain(id);
            assertThat(agent.send("GET", "/v1/allocation/" + id, null).statusCode()).isEqualTo(404);
            assertThat(Files.exists(agent.dataDir.resolve("alloc").resolve(id))).as("alloc dir of %s", id).isFalse();
        });
        for (JsonNode listed : readList(agent)) {
            assertThat(listed.path("ID").asString()).isNotEqualTo(id);
        }
    }

    private static JsonNode readList(AgentProcess agent) {
        try {
            return agent.allocs();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Set<String> shimAllocs(AgentProcess agent) {
        return agent.shims().stream().map(s -> Path.of(s.exitFile()).getFileName().toString().substring(0, 36)).collect(Collectors.toSet());
    }
}
