package dev.berth.alloc.runner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.RestartPolicySpec;
import dev.berth.alloc.task.HookState;
import dev.berth.alloc.task.TaskHookContext;
import dev.berth.alloc.task.TaskHooks.PrestartResult;
import dev.berth.alloc.task.TaskHooks.TaskPrestartHook;
import dev.berth.config.Sleeper;
import dev.berth.driver.ProcessSignals;
import dev.berth.driver.TaskDevice;
import dev.berth.driver.rawexec.RawExecDriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A prestart hook that reports done runs once per task; its env and devices are kept with the task's local state and
 * apply again on every later start: after restarts and after an agent restart (Nomad's done hooks keep their env).
 */
class DoneHookStateTest {

    private static final List<TaskDevice> DEVICES = List.of(new TaskDevice.Mount("/dev/null", "/dev/berth-null", true));

    @TempDir
    Path dir;
    RunnerHarness h;
    RawExecDriver raw;
    final AtomicInteger calls = new AtomicInteger();

    @BeforeEach
    void setUp() {
        raw = RunnerHarness.rawExec(dir, "test-raw-");
        h = new RunnerHarness(dir.resolve("allocs"), raw, Sleeper.system());
        h.extraTaskHooks.add(new TaskPrestartHook() {
            @Override
            public String name() {
                return "once";
            }

            @Override
            public PrestartResult prestart(TaskHookContext context) {
                calls.incrementAndGet();
                return new PrestartResult(Map.of("ONCE_ENV", "kept"), true, DEVICES);
            }
        });
    }

    @AfterEach
    void tearDown() throws Exception {
        h.close();
    }

    private static AllocationSpec alloc(String id, String type, String script) {
        RestartPolicySpec policy = new RestartPolicySpec(2, Duration.ofHours(1).toNanos(), Duration.ofMillis(10).toNanos(), "fail");
        return RawExecRunnerTest.alloc(id, type, policy, null, RawExecRunnerTest.sh("t", script, null, null, false));
    }

    private static List<String> seen(AllocRunner r) throws Exception {
        Path file = r.dir().taskDir("t").resolve("local/seen");
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }

    @Test
    void aDoneHookRunsOnceAndItsEnvAppliesToEveryRestart() throws Exception {
        AllocRunner r = h.runner(alloc("d1", "batch", "echo \"$ONCE_ENV\" >> \"$NOMAD_TASK_DIR/seen\"; exit 1"));
        r.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> r.runDone().isDone());
        assertThat(seen(r)).containsExactly("kept", "kept", "kept"); // the first run and both restarts
        assertThat(calls).hasValue(1);
        assertThat(h.store.taskLocalState("d1", "t").orElseThrow().hooks())
                .containsEntry("once", new HookState(true, Map.of("ONCE_ENV", "kept"), DEVICES));
    }

    @Test
    void aDoneHookStaysDoneAfterAnAgentRestartAndItsEnvStillApplies() throws Exception {
        AllocRunner first = h.runner(alloc("d2", "service", "echo \"$ONCE_ENV\" >> \"$NOMAD_TASK_DIR/seen\"; exec sleep 1000"));
        first.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> seen(first).size() == 1);
        first.shutdown(Duration.ofSeconds(5)); // the agent stops; the task keeps running
        h.runners.remove(first);
        // the task dies while no agent watches it
        int pgid = Integer.parseInt(h.store.taskLocalState("d2", "t").orElseThrow().handle().driverState().get("pgid"));
        ProcessSignals.signalGroup(pgid, 9);

        AllocRunner restored = new AllocRunner(h.context(Duration.ofSeconds(30)), h.store.alloc("d2").orElseThrow(), true);
        h.runners.add(restored);
        restored.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> seen(restored).size() == 2);
        assertThat(seen(restored)).containsExactly("kept", "kept");
        assertThat(calls).as("the hook ran before the agent restart only").hasValue(1);
        restored.killTasks("test");
    }
}
