package dev.berth.alloc.hooks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.runner.AllocHooks;
import dev.berth.alloc.runner.AllocRunner;
import dev.berth.alloc.runner.RunnerHarness;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.JobSpec;
import dev.berth.alloc.spec.ResourcesSpec;
import dev.berth.alloc.spec.RestartPolicySpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.config.Sleeper;
import dev.berth.driver.logs.Fifo;
import dev.berth.driver.rawexec.RawExecDriver;
import dev.berth.driver.rawexec.TaskOutputs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Task output through FIFOs and the rotating writer with real raw_exec processes. */
class TaskLogsHookTest {

    static final long MIB = 1024 * 1024;

    @TempDir
    Path dir;
    RunnerHarness h;
    RawExecDriver raw;
    final TaskLogsHook logs = new TaskLogsHook();

    @BeforeEach
    void setUp() {
        ScheduledThreadPoolExecutor poller = new ScheduledThreadPoolExecutor(1, Thread.ofVirtual().name("test-raw-", 0).factory());
        raw = new RawExecDriver(true, Clock.systemUTC(), dir.resolve("exit"), poller, Duration.ofMillis(50), TaskOutputs.FIFOS_OR_FILES);
        h = new RunnerHarness(dir.resolve("allocs"), raw, Sleeper.system());
        h.extraAllocHooks.add(logs);
        h.extraTaskHooks.add(logs);
    }

    @AfterEach
    void tearDown() throws Exception {
        h.close();
    }

    static TaskSpec sh(String name, String script, Map<String, Object> logConfig, RestartPolicySpec policy) {
        return new TaskSpec(name, "raw_exec", Map.of("command", "/bin/sh", "args", List.of("-c", script)), null,
                new ResourcesSpec(100, 32, null, null), policy, null, null, null, null, null, logConfig);
    }

    static AllocationSpec alloc(String id, String type, TaskSpec... tasks) {
        TaskGroupSpec group = new TaskGroupSpec("g", 1, List.of(tasks), null, null, null, null);
        JobSpec job = new JobSpec("j", "j", type, "default", null, null, null, List.of(group));
        return new AllocationSpec(id, "j.g[0]", "default", "j", job, "g", "run", 1L, null, null);
    }

    List<Path> logFiles(AllocRunner r, String prefix) throws IOException {
        try (Stream<Path> files = Files.list(r.dir().logsDir())) {
            return files.filter(p -> p.getFileName().toString().startsWith(prefix)).sorted().toList();
        }
    }

    /**
     * Descriptors of this JVM open on this alloc's log FIFOs: the pumps' read ends and the hook's read-write holders
     * (the pumps share one poller thread, so it is their descriptors that show a stream is still pumped).
     */
    static List<String> openLogFifos(String allocId) throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.map(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString();
                } catch (IOException ex) {
                    return ""; // closed meanwhile
                }
            }).filter(target -> target.contains("/" + allocId + "/") && target.endsWith(".fifo")).toList();
        }
    }

    @Test
    void aFastWriterIsRotatedWithinMaxFilesAndMaxFileSize() throws Exception {
        // 5 MiB + 10 bytes of stdout as fast as sh can write, 1 MiB files, keep 3
        TaskSpec task = sh("fast", "head -c " + (5 * MIB + 10) + " /dev/zero | tr '\\0' x; echo err >&2",
                Map.of("MaxFiles", 3, "MaxFileSizeMB", 1), null);
        AllocRunner r = h.runner(alloc("logs-fast", "batch", task));
        r.start();
        r.runDone().get(60, java.util.concurrent.TimeUnit.SECONDS);

        assertThat(Fifo.isFifo(r.dir().stdoutFifo("fast"))).isTrue();
        List<Path> out = logFiles(r, "fast.stdout.");
        assertThat(out).hasSizeLessThanOrEqualTo(3).extracting(p -> p.getFileName().toString())
                .containsExactlyInAnyOrder("fast.stdout.3", "fast.stdout.4", "fast.stdout.5");
        for (Path p : out) {
            assertThat(Files.size(p)).isLessThanOrEqualTo(MIB);
        }
        // nothing lost in the files kept: two full ones and the 10-byte tail
        assertThat(out.stream().mapToLong(p -> p.toFile().length()).sum()).isEqualTo(2 * MIB + 10);
        assertThat(r.dir().logsDir().resolve("fast.stderr.0")).hasContent("err");
        assertThat(logs.activeStreams("logs-fast")).isZero();
        await().atMost(Duration.ofSeconds(10)).until(() -> openLogFifos("logs-fast").isEmpty());
    }

    @Test
    void onePumpServesEveryRunOfARestartingTask() throws Exception {
        RestartPolicySpec twice = new RestartPolicySpec(2, 60_000_000_000L, 10_000_000L, "fail");
        TaskSpec task = sh("again", "echo run; exit 1", null, twice);
        AllocRunner r = h.runner(alloc("logs-restart", "batch", task));
        r.start();
        r.runDone().get(60, java.util.concurrent.TimeUnit.SECONDS);

        assertThat(r.taskStates().get("again").restarts()).isEqualTo(2);
        assertThat(r.dir().logsDir().resolve("again.stdout.0")).hasContent("run\nrun\nrun");
        await().atMost(Duration.ofSeconds(10)).until(() -> openLogFifos("logs-restart").isEmpty());
    }

    @Test
    void agentShutdownStopsThePumpsButNotTheTaskAndALaterAgentDrainsOn() throws Exception {
        TaskSpec task = sh("ticker", "i=0; while true; do i=$((i+1)); echo tick$i; sleep 0.05; done", null, null);
        AllocRunner r = h.runner(alloc("logs-shutdown", "service", task));
        r.start();
        Path log0 = r.dir().logsDir().resolve("ticker.stdout.0");
        await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(log0) && Files.readString(log0).contains("tick3\n"));
        long pid = Long.parseLong(h.store.taskLocalState("logs-shutdown", "ticker").orElseThrow().handle().driverState().get("pid"));

        r.shutdown(Duration.ofSeconds(5));

        await().atMost(Duration.ofSeconds(10)).until(() -> openLogFifos("logs-shutdown").isEmpty());
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).contains(true);
        // a restarted agent's prerun opens the FIFO again and the ticks go on into the same file
        var ctx = new AllocHooks.AllocHookContext(r.record().spec(), r.dir());
        TaskLogsHook next = new TaskLogsHook();
        next.prerun(ctx);
        long before = Files.size(log0);
        await().atMost(Duration.ofSeconds(20)).until(() -> Files.size(log0) > before + 20);
        assertThat(Files.readString(log0)).contains("tick1\n", "tick3\n");
        ProcessHandle.of(pid).ifPresent(p -> {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        });
        next.destroy(ctx);
        await().atMost(Duration.ofSeconds(10)).until(() -> openLogFifos("logs-shutdown").isEmpty());
    }
}
