package dev.berth.alloc.runner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.admission.PortAllocator;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.JobSpec;
import dev.berth.alloc.spec.NetworkSpec;
import dev.berth.alloc.spec.ResourcesSpec;
import dev.berth.alloc.spec.RestartPolicySpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.config.Sleeper;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskState;
import dev.berth.driver.rawexec.RawExecDriver;

import static dev.berth.alloc.runner.RunnerHarness.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Runners with real processes through raw_exec: kill timeout and process groups, leader death, measured restart gaps, env. */
class RawExecRunnerTest {

    @TempDir
    Path dir;
    RunnerHarness h;
    RawExecDriver raw;

    @BeforeEach
    void setUp() {
        raw = RunnerHarness.rawExec(dir, "test-raw-");
        h = new RunnerHarness(dir.resolve("allocs"), raw, Sleeper.system());
    }

    @AfterEach
    void tearDown() throws Exception {
        h.close();
    }

    static TaskSpec sh(String name, String script, Long killTimeoutNs, String killSignal, boolean leader) {
        return new TaskSpec(name, "raw_exec", Map.of("command", "/bin/sh", "args", List.of("-c", script)), null,
                new ResourcesSpec(100, 32, null, null), null, killTimeoutNs, killSignal, leader, null, null, null);
    }

    static AllocationSpec alloc(String id, String type, RestartPolicySpec policy, List<NetworkSpec> nets, TaskSpec... tasks) {
        TaskGroupSpec group = new TaskGroupSpec("g", 1, List.of(tasks), policy, nets, null, null);
        JobSpec job = new JobSpec("j", "j", type, "default", null, null, null, List.of(group));
        return new AllocationSpec(id, "j.g[3]", "default", "j", job, "g", "run", 1L, null, null);
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)
                && !readState(pid).equals("Z");
    }

    private static String readState(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        } catch (Exception e) {
            return "gone";
        }
    }

    @Test
    void aTaskThatTrapsSigtermIsSigkilledAtTheTimeoutWithItsChildren() throws Exception {
        String script = "trap '' TERM; sleep 1000 & echo $! > \"$NOMAD_TASK_DIR/child.pid\"; while true; do sleep 1; done";
        AllocRunner r = h.runner(alloc("r1", "service", null, null, sh("t", script, Duration.ofSeconds(1).toNanos(), "SIGTERM", false)));
        r.start();
        Path pidFile = r.dir().taskDir("t").resolve("local/child.pid");
        await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(pidFile) && !Files.readString(pidFile).isBlank());
        long child = Long.parseLong(Files.readString(pidFile).trim());
        assertThat(alive(child)).isTrue();
        long t0 = System.nanoTime();
        r.killTasks("test");
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        TaskState s = r.taskStates().get("t");
        assertThat(types(s)).endsWith("Killing", "Terminated", "Killed");
        TaskEvent terminated = s.events().get(s.events().size() - 2);
        assertThat(terminated.signal()).isEqualTo(9);
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofSeconds(1)).isLessThan(Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(5)).until(() -> !alive(child));
    }

    @Test
    void aDeadLeaderKillsItsSibling() throws Exception {
        AllocRunner r = h.runner(alloc("r2", "batch", null, null,
                sh("leader", "sleep 0.3", null, null, true),
                sh("follower", "echo $$ > \"$NOMAD_TASK_DIR/pid\"; exec sleep 1000", null, "SIGTERM", false)));
        r.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> r.taskStates().get("follower").dead());
        TaskState follower = r.taskStates().get("follower");
        assertThat(types(follower)).contains("Started", "Leader Task Dead", "Killing", "Terminated", "Killed");
        long pid = Long.parseLong(Files.readString(r.dir().taskDir("follower").resolve("local/pid")).trim());
        await().atMost(Duration.ofSeconds(5)).until(() -> !alive(pid));
        await().until(() -> r.record().clientStatus().equals(ClientStatus.COMPLETE));
    }

    @Test
    void restartGapsMatchThePolicy() {
        Duration delay = Duration.ofMillis(800);
        RestartPolicySpec policy = new RestartPolicySpec(2, Duration.ofSeconds(10).toNanos(), delay.toNanos(), "fail");
        AllocRunner r = h.runner(alloc("r3", "service", policy, null, sh("t", "exit 7", null, null, false)));
        r.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> r.taskStates().get("t").dead());
        TaskState s = r.taskStates().get("t");
        assertThat(types(s)).containsSubsequence("Terminated", "Restarting", "Started", "Terminated", "Restarting", "Started",
                "Terminated", "Not Restarting");
        // the harness' jitter is the maximum: delay + (delay-1ns)*0.25
        Duration expected = delay.plusNanos((long) ((delay.toNanos() - 1) * 0.25));
        assertThat(h.sleeps).containsExactly(expected, expected);
        List<TaskEvent> ev = s.events();
        for (int i = 0; i < ev.size() - 1; i++) {
            if (ev.get(i).type().equals("Restarting")) {
                TaskEvent next = ev.subList(i, ev.size()).stream().filter(e -> e.type().equals("Started")).findFirst().orElseThrow();
                Duration gap = Duration.between(ev.get(i).time(), next.time());
                assertThat(gap).isGreaterThanOrEqualTo(expected).isLessThan(expected.plusSeconds(1));
            }
        }
        assertThat(s.events().stream().filter(e -> e.type().equals("Terminated")).allMatch(e -> e.exitCode() == 7)).isTrue();
    }

    @Test
    void theTaskSeesItsEnvironmentAndPortsBeforeItStarts() throws Exception {
        List<NetworkSpec> nets = List.of(new NetworkSpec(null, null, null, List.of(new NetworkSpec.PortSpec("http", null, 8080))));
        TaskSpec t = new TaskSpec("t", "raw_exec", Map.of("command", "/bin/sh", "args", List.of("-c", "env > \"$NOMAD_TASK_DIR/env.txt\"")),
                Map.of("GREETING", "hi"), new ResourcesSpec(250, 64, null, null), null, null, null, null, null, Map.of("team", "a"), null);
        AllocRunner r = h.runner(alloc("r4envtest", "batch", null, nets, t), new PortAllocator(20000, 32000, java.util.random.RandomGenerator.getDefault()));
        r.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> r.taskStates().get("t").dead());
        String env = Files.readString(r.dir().taskDir("t").resolve("local/env.txt"));
        int port = r.record().spec().allocatedResources().shared().ports().getFirst().value();
        assertThat(env).contains("NOMAD_ALLOC_ID=r4envtest\n", "NOMAD_SHORT_ALLOC_ID=r4envtes\n", "NOMAD_ALLOC_INDEX=3\n",
                "NOMAD_GROUP_NAME=g\n", "NOMAD_CPU_LIMIT=250\n", "NOMAD_MEMORY_LIMIT=64\n", "GREETING=hi\n", "NOMAD_META_TEAM=a\n",
                "NOMAD_META_team=a\n", "NOMAD_PORT_http=8080\n", "NOMAD_HOST_PORT_http=" + port + "\n", "NOMAD_ADDR_http=127.0.0.1:" + port + "\n",
                "NOMAD_IP_http=127.0.0.1\n", "NOMAD_ALLOC_DIR=" + r.dir().sharedDir() + "\n", "PATH=");
        assertThat(r.dir().logsDir().resolve("t.stdout.0")).exists();
    }
}
