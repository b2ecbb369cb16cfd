package dev.berth.api;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.config.BerthProperties;
import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.ExecClient;
import dev.berth.support.Http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code alloc exec} over a real websocket into real raw_exec tasks of a running agent. */
@AgentIntegrationTest
class ExecApiTest {

    static final Duration WAIT = Duration.ofSeconds(30);

    @LocalServerPort
    int port;

    @Autowired
    BerthProperties props;

    final JsonMapper json = JsonMapper.builder().build();
    final List<String> created = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (String id : created) {
            Http.send(port, "DELETE", "/v1/client/allocation/" + id, null);
        }
    }

    /** A raw_exec task {@code t} running {@code script}, with {@code FOO=bar} in its env; waits until it runs. */
    String runningTask(String type, String script) throws Exception {
        String id = UUID.randomUUID().toString();
        String body = """
                {"ID":"%s","Name":"ex.app[0]","JobID":"ex","AllocModifyIndex":1,"DesiredStatus":"run","TaskGroup":"app",
                 "Job":{"ID":"ex","Name":"ex","Type":"%s","TaskGroups":[{"Name":"app","Count":1,
                   "RestartPolicy":{"Attempts":0,"Mode":"fail","Interval":60000000000,"Delay":1000000000},
                   "Tasks":[{"Name":"t","Driver":"raw_exec","Env":{"FOO":"bar"},
                     "Config":{"command":"/bin/sh","args":["-c","%s"]},"Resources":{"CPU":10,"MemoryMB":32}}]}]}}"""
                .formatted(id, type, script);
        HttpResponse<String> r = Http.send(port, "PUT", "/v1/client/allocation/" + id, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        created.add(id);
        await().atMost(WAIT).until(() -> taskState(id).path("State").asString().equals("running"));
        return id;
    }

    JsonNode taskState(String id) throws Exception {
        return json.readTree(Http.get(port, "/v1/allocation/" + id).body()).path("TaskStates").path("t");
    }

    @Test
    void commandGetsStdoutStderrExitCodeAndTheTasksEnvironmentDirectoryAndCgroup() throws Exception {
        String id = runningTask("service", "exec sleep 1000");
        try (ExecClient exec = ExecClient.open(port, id, "t",
                List.of("/bin/sh", "-c", "echo out; echo err >&2; echo FOO=$FOO; pwd; cat /proc/self/cgroup; exit 3"), false)) {
            assertThat(exec.exitCode(WAIT)).isEqualTo(3);
            String out = exec.output("stdout");
            assertThat(out).startsWith("out\nFOO=bar\n" + props.allocDir().resolve(id).resolve("t").toAbsolutePath().normalize() + "\n");
            Path taskCgroupMark = Path.of(id + ".t");
            if (Files.isDirectory(Path.of("/sys/fs/cgroup/memory")) || Files.exists(Path.of("/sys/fs/cgroup/cgroup.controllers"))) {
                // the command runs inside the task's cgroup (berth-<node>/<alloc>.<task>)
                assertThat(out).contains("/" + taskCgroupMark);
            }
            assertThat(exec.output("stderr")).isEqualTo("err\n");
            assertThat(exec.frames()).anySatisfy(f -> assertThat(f.path("stdout").path("close").asBoolean()).isTrue());
            assertThat(exec.closeStatus(WAIT)).isEqualTo("1000 ");
        }
        // every exec is a task event (Berth's "Exec" type, the command in the message)
        await().atMost(WAIT).untilAsserted(() -> assertThat(taskState(id).path("Events").valueStream()
                .filter(e -> e.path("Type").asString().equals("Exec")).map(e -> e.path("DisplayMessage").asString()).toList())
                .singleElement().asString().startsWith("Exec session started: [/bin/sh, -c, echo out;"));
        assertThat(taskState(id).path("State").asString()).isEqualTo("running");
    }

    @Test
    void stdinIsPipedAndItsCloseIsEndOfFile() throws Exception {
        String id = runningTask("service", "exec sleep 1000");
        try (ExecClient exec = ExecClient.open(port, id, "t", List.of("cat"), false)) {
            exec.stdin("hello ");
            exec.stdin("exec\n");
            exec.closeStdin();
            assertThat(exec.exitCode(WAIT)).isZero();
            assertThat(exec.output("stdout")).isEqualTo("hello exec\n");
        }
    }

    @Test
    void aTtySessionIsARealTerminalThatFollowsItsSize() throws Exception {
        String id = runningTask("service", "exec sleep 1000");
        try (ExecClient exec = ExecClient.open(port, id, "t", List.of("/bin/sh"), true)) {
            exec.ttySize(33, 101);
            exec.stdin("tty; stty size; exit 7\n");
            assertThat(exec.exitCode(WAIT)).isEqualTo(7);
            String screen = exec.output("stdout");
            assertThat(screen).containsPattern("/dev/pts/\\d+").contains("33 101");
            // a terminal carries stderr in its one stream
            assertThat(exec.output("stderr")).isEmpty();
        }
    }

    @Test
    void refusalsCloseTheSocketWithNomadsTexts() throws Exception {
        String id = runningTask("service", "exec sleep 1000");
        try (ExecClient exec = ExecClient.open(port, id, "nope", List.of("true"), false)) {
            assertThat(exec.closeStatus(WAIT)).isEqualTo("1008 unknown task name \"nope\"");
        }
        try (ExecClient exec = ExecClient.open(port, id, "", List.of("true"), false)) {
            assertThat(exec.closeStatus(WAIT)).isEqualTo("1008 must provide task name");
        }
        try (ExecClient exec = ExecClient.open(port, id, "t", List.of(), false)) {
            assertThat(exec.closeStatus(WAIT)).isEqualTo("1008 command is not present");
        }
        String unknown = UUID.randomUUID().toString();
        try (ExecClient exec = ExecClient.open(port, unknown, "t", List.of("true"), false)) {
            assertThat(exec.closeStatus(WAIT)).isEqualTo("1008 Unknown allocation \"" + unknown + "\"");
        }
        String done = runningTask("batch", "exec sleep 0.2");
        await().atMost(WAIT).until(() -> taskState(done).path("State").asString().equals("dead"));
        try (ExecClient exec = ExecClient.open(port, done, "t", List.of("true"), false)) {
            assertThat(exec.closeStatus(WAIT)).isEqualTo("1008 task \"t\" is not running.");
        }
    }

    @Test
    void closingTheSocketKillsTheCommandAndItsChildren() throws Exception {
        String id = runningTask("service", "exec sleep 1000");
        long pid;
        try (ExecClient exec = ExecClient.open(port, id, "t", List.of("/bin/sh", "-c", "sleep 1000 & echo $!; wait"), false)) {
            await().atMost(WAIT).until(() -> exec.output("stdout").endsWith("\n"));
            pid = Long.parseLong(exec.output("stdout").strip());
            assertThat(ProcessHandle.of(pid)).isPresent();
        }
        await().atMost(WAIT).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
        assertThat(taskState(id).path("State").asString()).isEqualTo("running");
    }

    @Test
    void anExecNeverOutlivesItsTask() throws Exception {
        String id = runningTask("service", "exec sleep 1000");
        try (ExecClient exec = ExecClient.open(port, id, "t", List.of("/bin/sh", "-c", "echo $$; exec sleep 1000"), false)) {
            await().atMost(WAIT).until(() -> exec.output("stdout").endsWith("\n"));
            long pid = Long.parseLong(exec.output("stdout").strip());
            HttpResponse<String> stop = Http.send(port, "DELETE", "/v1/client/allocation/" + id, null);
            assertThat(stop.statusCode()).as(stop.body()).isLessThan(300);
            // the session ends with the task: the command was killed (SIGKILL: 128 + 9) and the socket closed
            assertThat(exec.exitCode(WAIT)).isEqualTo(137);
            assertThat(exec.closeStatus(WAIT)).startsWith("1000");
            await().atMost(WAIT).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
        }
    }
}
