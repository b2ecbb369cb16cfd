package dev.berth.restore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 7 end to end: real agents in their own JVMs, real raw_exec processes. Allocations run, the agent stops (SIGTERM
 * once, SIGKILL once), work happens while it is down, and a new agent on the same data dir must pick everything up:
 * the same processes still run, no new Started events, a batch task that finished while the agent was down is complete
 * with exit 0 and not re-run, a failing task continues its restart policy with the restored counters, and no process is
 * orphaned or duplicated.
 */
class AgentRestartTest {

    @TempDir
    Path tmp;

    static String alloc(String id, String type, String task, String restartPolicy) {
        return """
                {"ID":"%s","Name":"j.g[0]","JobID":"j-%s","AllocModifyIndex":1,"DesiredStatus":"run","TaskGroup":"g",
                 "Job":{"ID":"j-%s","Name":"j-%s","Type":"%s","TaskGroups":[{"Name":"g","Count":1,%s"Tasks":[%s]}]}}"""
                .formatted(id, id, id, id, type, restartPolicy == null ? "" : "\"RestartPolicy\":" + restartPolicy + ",", task);
    }

    static String shTask(String name, String script) {
        String quoted = script.replace("\\", "\\\\").replace("\"", "\\\"");
        return """
                {"Name":"%s","Driver":"raw_exec","KillTimeout":1000000000,"Config":{"command":"/bin/sh","args":["-c","%s"]},
                 "Resources":{"CPU":20,"MemoryMB":16}}""".formatted(name, quoted);
    }

    /** Runs k (1, 2, …) wait for the file go<k> in the task dir, then exit 3. Every run is counted in the file runs. */
    static final String FAILING = "n=$(( $(cat runs 2>/dev/null || echo 0) + 1 )); echo $n > runs; "
            + "while [ ! -e go$n ]; do sleep 0.05; done; exit 3";
    /** One run: records it, waits for the file go, exits 0. */
    static final String BATCH = "n=$(( $(cat runs 2>/dev/null || echo 0) + 1 )); echo $n > runs; "
            + "while [ ! -e go ]; do sleep 0.05; done; exit 0";
    /** One run: waits for the file go, exits 7. */
    static final String LATE = "n=$(( $(cat runs 2>/dev/null || echo 0) + 1 )); echo $n > runs; "
            + "while [ ! -e go ]; do sleep 0.05; done; exit 7";
    /** Long running: the task's own pid (after exec) is in the file pid. */
    static final String SERVICE = "echo $$ > pid; exec sleep 100000";

    @ParameterizedTest(name = "agent stopped with {0}")
    @ValueSource(strings = {"SIGTERM", "SIGKILL"})
    void restartedAgentPicksUpEveryTask(String how) throws Exception {
        Path data = tmp.resolve("data");
        String svc = UUID.randomUUID().toString();
        String batch = UUID.randomUUID().toString();
        String failing = UUID.randomUUID().toString();
        String late = UUID.randomUUID().toString();
        String policy = "{\"Attempts\":2,\"Interval\":600000000000,\"Delay\":1000000,\"Mode\":\"fail\"}";
        try (AgentProcess agent = new AgentProcess(data)) {
            agent.start();
            agent.put(svc, alloc(svc, "service", shTask("web", SERVICE) + "," + shTask("side", SERVICE), null));
            agent.put(batch, alloc(batch, "batch", shTask("job", BATCH), null));
            agent.put(failing, alloc(failing, "service", shTask("flaky", FAILING), policy));
            agent.put(late, alloc(late, "batch", shTask("late", LATE), "{\"Attempts\":0,\"Interval\":600000000000,\"Delay\":1000000,\"Mode\":\"fail\"}"));
            Path svcWeb = data.resolve("alloc").resolve(svc).resolve("web");
            Path svcSide = data.resolve("alloc").resolve(svc).resolve("side");
            Path batchDir = data.resolve("alloc").resolve(batch).resolve("job");
            Path flakyDir = data.resolve("alloc").resolve(failing).resolve("flaky");
            Path lateDir = data.resolve("alloc").resolve(late).resolve("late");
            await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(svcWeb.resolve("pid")) && Files.exists(svcSide.resolve("pid"))
                    && Files.exists(batchDir.resolve("runs")) && Files.exists(flakyDir.resolve("runs")) && Files.exists(lateDir.resolve("runs")));
            await().atMost(Duration.ofSeconds(30)).until(() -> "running".equals(agent.alloc(svc).path("ClientStatus").asString()));
            // The flaky task fails once while the agent is up: restart 1 of 2.
            Files.createFile(flakyDir.resolve("go1"));
            await().atMost(Duration.ofSeconds(30)).until(() -> runs(flakyDir) == 2
                    && task(agent.alloc(failing), "flaky").path("State").asString().equals("running"));
            long webPid = Long.parseLong(Files.readString(svcWeb.resolve("pid")).trim());
            long sidePid = Long.parseLong(Files.readString(svcSide.resolve("pid")).trim());
            long webStart = startTicks(webPid);
            long sideStart = startTicks(sidePid);
            assertThat(task(agent.alloc(failing), "flaky").path("Restarts").asLong()).isEqualTo(1);

            if (how.equals("SIGTERM")) {
                agent.stopGracefully();
            } else {
                agent.kill();
            }
            // While the agent is down: the batch task succeeds, the flaky task fails a second time.
            List<AgentProcess.Shim> before = agent.shims();
            assertThat(before).hasSize(5);
            Files.createFile(batchDir.resolve("go"));
            Files.createFile(flakyDir.resolve("go2"));
            await().atMost(Duration.ofSeconds(30)).until(() -> agent.shims().size() == 3);

            agent.start();
            // Reconcile, then restore, all before the API listens (readiness cannot accept traffic earlier).
            String log = Files.readString(agent.log());
            assertThat(log.indexOf("reconciled task processes: live=3 accountedFor=3 killedUnknown=0")).isPositive()
                    .isLessThan(log.indexOf("restored allocation"));
            assertThat(log.lastIndexOf("restored allocation")).isLessThan(log.indexOf("Tomcat started on port"));
            // Reattached: the same processes, no new Started event, still running.
            JsonNode s = agent.alloc(svc);
            assertThat(s.path("ClientStatus").asString()).isEqualTo("running");
            for (String t : List.of("web", "side")) {
                assertThat(task(s, t).path("State").asString()).isEqualTo("running");
                assertThat(count(task(s, t), "Started")).isEqualTo(1);
            }
            assertThat(startTicks(webPid)).isEqualTo(webStart);
            assertThat(startTicks(sidePid)).isEqualTo(sideStart);
            // The batch task that ended while the agent was down: complete, exit 0, not re-run.
            await().atMost(Duration.ofSeconds(30)).until(() -> "complete".equals(agent.alloc(batch).path("ClientStatus").asString()));
            JsonNode job = task(agent.alloc(batch), "job");
            assertThat(job.path("State").asString()).isEqualTo("dead");
            assertThat(job.path("Failed").asBoolean()).isFalse();
            assertThat(lastOf(job, "Terminated").path("ExitCode").asInt()).isEqualTo(0);
            assertThat(count(job, "Started")).isEqualTo(1);
            assertThat(runs(batchDir)).isEqualTo(1);
            // The flaky task's exit 3 while down counts as restart 2 of 2 (counters restored): run 3 starts ...
            await().atMost(Duration.ofSeconds(30)).until(() -> runs(flakyDir) == 3
                    && task(agent.alloc(failing), "flaky").path("State").asString().equals("running"));
            JsonNode flaky = task(agent.alloc(failing), "flaky");
            assertThat(flaky.path("Restarts").asLong()).isEqualTo(2);
            assertThat(lastOf(flaky, "Terminated").path("ExitCode").asInt()).isEqualTo(3);
            // ... and when it fails again the policy's attempts are used up: no run 4.
            Files.createFile(flakyDir.resolve("go3"));
            await().atMost(Duration.ofSeconds(30)).until(() -> "failed".equals(agent.alloc(failing).path("ClientStatus").asString()));
            flaky = task(agent.alloc(failing), "flaky");
            assertThat(flaky.path("State").asString()).isEqualTo("dead");
            assertThat(lastOf(flaky, "Not Restarting")).isNotNull();
            assertThat(runs(flakyDir)).isEqualTo(3);
            // A task reattached while running that exits afterwards reports its real exit code (from the shim's exit file).
            assertThat(task(agent.alloc(late), "late").path("State").asString()).isEqualTo("running");
            Files.createFile(lateDir.resolve("go"));
            await().atMost(Duration.ofSeconds(30)).until(() -> "failed".equals(agent.alloc(late).path("ClientStatus").asString()));
            JsonNode lateTask = task(agent.alloc(late), "late");
            assertThat(lastOf(lateTask, "Terminated").path("ExitCode").asInt()).isEqualTo(7);
            assertThat(count(lateTask, "Started")).isEqualTo(1);
            assertThat(runs(lateDir)).isEqualTo(1);
            // Exactly the two service processes run: no orphan, no duplicate.
            List<AgentProcess.Shim> after = agent.shims();
            assertThat(after).hasSize(2);
            assertThat(after.stream().map(AgentProcess.Shim::exitFile).distinct()).hasSize(2);
            assertThat(ProcessHandle.of(webPid)).isPresent();
            assertThat(ProcessHandle.of(sidePid)).isPresent();

            // A destroyed alloc's tasks end and it does not come back on the next restart.
            assertThat(agent.send("DELETE", "/v1/client/allocation/" + svc, null).statusCode()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(30)).until(() -> agent.shims().isEmpty());
            agent.stopGracefully();
            agent.start();
            assertThat(agent.send("GET", "/v1/allocation/" + svc, null).statusCode()).isEqualTo(404);
            assertThat(agent.shims()).isEmpty();
        }
    }

    static JsonNode task(JsonNode alloc, String name) {
        return alloc.path("TaskStates").path(name);
    }

    static long count(JsonNode task, String type) {
        long n = 0;
        for (JsonNode e : task.path("Events")) {
            if (type.equals(e.path("Type").asString())) {
                n++;
            }
        }
        return n;
    }

    static JsonNode lastOf(JsonNode task, String type) {
        JsonNode last = null;
        for (JsonNode e : task.path("Events")) {
            if (type.equals(e.path("Type").asString())) {
                last = e;
            }
        }
        return last;
    }

    static int runs(Path taskDir) throws Exception {
        Path f = taskDir.resolve("runs");
        if (!Files.exists(f)) {
            return 0;
        }
        String s = Files.readString(f).trim();
        return s.isEmpty() ? 0 : Integer.parseInt(s);
    }

    static long startTicks(long pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[19]);
    }

    static List<String> ids(int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(UUID.randomUUID().toString());
        }
        return ids;
    }
}
