package dev.berth.artifact;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sun.net.httpserver.HttpServer;

import dev.berth.alloc.runner.AllocRunner;
import dev.berth.alloc.runner.RunnerHarness;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.JobSpec;
import dev.berth.alloc.spec.ResourcesSpec;
import dev.berth.alloc.spec.RestartPolicySpec;
import dev.berth.alloc.spec.TaskArtifactSpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskState;
import dev.berth.config.NodeIdentity;
import dev.berth.config.Sleeper;
import dev.berth.driver.TaskDriver;
import dev.berth.driver.exec.ExecDriver;
import dev.berth.driver.rawexec.RawExecDriver;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.host.cgroup.HostCgroups;

import static dev.berth.alloc.runner.RunnerHarness.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Real tasks that run what the artifact hook fetched from a server on loopback: Nomad's events around the download, the
 * restart policy after a failed one, and no second download after a task restart or an agent restart.
 */
class ArtifactRunnerTest {

    static final String SCRIPT = "echo \"ran $1\" >> \"$NOMAD_TASK_DIR/seen\"\n";

    @TempDir
    Path dir;
    HttpServer server;
    final Map<String, byte[]> files = new ConcurrentHashMap<>();
    final AtomicInteger hits = new AtomicInteger();
    RawExecDriver raw;
    RunnerHarness h;

    @BeforeEach
    void setUp() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", ex -> {
            hits.incrementAndGet();
            byte[] body = files.get(ex.getRequestURI().getPath());
            if (body == null) {
                ex.sendResponseHeaders(404, -1);
            } else {
                ex.sendResponseHeaders(200, body.length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(body);
                }
            }
            ex.close();
        });
        server.start();
        files.put("/bin/run.sh", SCRIPT.getBytes(StandardCharsets.UTF_8));
        files.put("/app.tar.gz", TestArchives.gzip(TestArchives.tar("app/run.sh", SCRIPT)));
        raw = rawExec();
        h = harness(raw);
    }

    @AfterEach
    void tearDown() throws Exception {
        h.close();
        server.stop(0);
    }

    private RawExecDriver rawExec() {
        return RunnerHarness.rawExec(dir, "test-artifact-");
    }

    private RunnerHarness harness(TaskDriver driver) {
        RunnerHarness harness = new RunnerHarness(dir.resolve("allocs"), driver, Sleeper.system());
        harness.extraTaskHooks.add(new ArtifactHook(ArtifactProperties.defaults(),
                context -> harness.context(Duration.ofSeconds(30)).envBuilder().apply(context), harness.clock));
        return harness;
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    static AllocationSpec alloc(String type, String driver, RestartPolicySpec policy, String script, List<TaskArtifactSpec> artifacts) {
        TaskSpec t = new TaskSpec("t", driver, Map.of("command", "/bin/sh", "args", List.of("-c", script)), null,
                new ResourcesSpec(100, 32, null, null), null, null, null, false, null, null, null, null, null, artifacts, null);
        TaskGroupSpec group = new TaskGroupSpec("g", 1, List.of(t), policy, null, null, null);
        JobSpec job = new JobSpec("j", "j", type, "default", null, null, null, List.of(group));
        return new AllocationSpec(UUID.randomUUID().toString(), "j.g[0]", "default", "j", job, "g", "run", 1L, null, null);
    }

    static RestartPolicySpec policy(int attempts) {
        return new RestartPolicySpec(attempts, Duration.ofHours(1).toNanos(), Duration.ofMillis(10).toNanos(), "fail");
    }

    static List<String> seen(AllocRunner r) throws IOException {
        Path file = r.dir().taskDir("t").resolve("local/seen");
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }

    @Test
    void aRawExecTaskRunsTheScriptsItsArtifactsFetchedAndUnpacked() throws Exception {
        List<TaskArtifactSpec> artifacts = List.of(
                new TaskArtifactSpec(url("/bin/run.sh"), null, null, null, null, null, null),
                new TaskArtifactSpec(url("/app.tar.gz"), null, null, null, null, "local/unpacked", null));
        AllocRunner r = h.runner(alloc("batch", "raw_exec", policy(0),
                "sh \"$NOMAD_TASK_DIR/run.sh\" plain && \"$NOMAD_TASK_DIR/unpacked/app/run.sh\" unpacked", artifacts));
        r.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> r.taskStates().get("t").dead());
        TaskState s = r.taskStates().get("t");
        assertThat(s.failed()).isFalse();
        assertThat(seen(r)).containsExactly("ran plain", "ran unpacked");
        assertThat(types(s)).containsSubsequence("Received", "Task Setup", "Downloading Artifacts", "Started", "Terminated");
        TaskEvent downloading = s.events().stream().filter(e -> e.type().equals(TaskEvent.DOWNLOADING_ARTIFACTS)).findFirst().orElseThrow();
        assertThat(downloading.displayMessage()).isEqualTo("Client is downloading artifacts");
    }

    @Test
    void aChecksumMismatchIsAFailedDownloadThatTheRestartPolicyRetriesThenFails() {
        String wrong = "sha256:" + "0".repeat(64);
        List<TaskArtifactSpec> artifacts = List.of(new TaskArtifactSpec(url("/bin/run.sh"), Map.of("checksum", wrong), null, null,
                null, null, null));
        AllocRunner r = h.runner(alloc("batch", "raw_exec", policy(1), "exit 0", artifacts));
        r.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> r.taskStates().get("t").dead());
        TaskState s = r.taskStates().get("t");
        assertThat(s.failed()).isTrue();
        assertThat(types(s)).containsSubsequence("Downloading Artifacts", "Failed Artifact Download", "Restarting",
                "Downloading Artifacts", "Failed Artifact Download", "Not Restarting").doesNotContain("Started");
        TaskEvent failed = s.events().stream().filter(e -> e.type().equals(TaskEvent.ARTIFACT_DOWNLOAD_FAILED)).findFirst().orElseThrow();
        assertThat(failed.detail("download_error")).startsWith("failed to download artifact \"" + url("/bin/run.sh") + "\": ")
                .contains("checksums did not match");
        assertThat(failed.displayMessage()).isEqualTo(failed.detail("download_error"));
        // a failed attempt keeps nothing: the retry fetched again
        assertThat(hits).hasValue(2);
    }

    @Test
    void fetchedArtifactsAreNotFetchedAgainOnRestartsNorAfterAnAgentRestart() throws Exception {
        List<TaskArtifactSpec> artifacts = List.of(new TaskArtifactSpec(url("/bin/run.sh"), null, null, null, null, null, null));
        AllocationSpec spec = alloc("service", "raw_exec", policy(2),
                "sh \"$NOMAD_TASK_DIR/run.sh\" again; [ $(wc -l < \"$NOMAD_TASK_DIR/seen\") -ge 3 ] && exec sleep 1000; exit 1", artifacts);
        AllocRunner first = h.runner(spec);
        first.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> seen(first).size() == 3);
        assertThat(hits).as("two restarts, one download").hasValue(1);
        await().until(() -> first.taskStates().get("t").running());

        first.shutdown(Duration.ofSeconds(5)); // the agent stops; the task keeps running
        h.runners.remove(first);
        AllocRunner restored = new AllocRunner(h.context(Duration.ofSeconds(30)), h.store.alloc(spec.id()).orElseThrow(), true);
        h.runners.add(restored);
        restored.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> restored.taskStates().get("t").running());
        assertThat(hits).as("the restored task is not fetched for again").hasValue(1);
        restored.killTasks("test");
    }

    @Test
    void anExecTaskRunsItsFetchedScriptInItsCgroup() throws Exception {
        NodeIdentity node = new NodeIdentity(UUID.randomUUID().toString());
        CgroupManager cgroups = HostCgroups.manager(node);
        ExecDriver exec = new ExecDriver(true, rawExec(), cgroups, 4096, 2000);
        try (RunnerHarness e = harness(exec)) {
            List<TaskArtifactSpec> artifacts = List.of(new TaskArtifactSpec(url("/app.tar.gz"), null, null, null, null, "local", null));
            AllocRunner r = e.runner(alloc("batch", "exec", policy(0),
                    "\"$NOMAD_TASK_DIR/app/run.sh\" exec; grep -q berth-" + node.shortId()
                            + " /proc/self/cgroup && echo in-cgroup >> \"$NOMAD_TASK_DIR/seen\"",
                    artifacts));
            r.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> r.taskStates().get("t").dead());
            assertThat(r.taskStates().get("t").failed()).isFalse();
            assertThat(seen(r)).containsExactly("ran exec", "in-cgroup");
        } finally {
            exec.close();
            cgroups.removeParentIfEmpty();
        }
    }
}
