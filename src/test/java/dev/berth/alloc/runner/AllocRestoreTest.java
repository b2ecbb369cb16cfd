package dev.berth.alloc.runner;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.store.ClientStatus;
import dev.berth.alloc.task.TaskState;

import static dev.berth.alloc.runner.RunnerHarness.alloc;
import static dev.berth.alloc.runner.RunnerHarness.task;
import static dev.berth.alloc.runner.RunnerHarness.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Agent restart: runners recreated from the store re-attach running tasks through their persisted handles. */
class AllocRestoreTest {

    @TempDir
    Path dir;
    RunnerHarness h;

    @BeforeEach
    void setUp() {
        h = new RunnerHarness(dir);
    }

    @AfterEach
    void tearDown() throws Exception {
        h.close();
    }

    private AllocRunner runUntilRunningThenShutDown(String id) throws Exception {
        AllocRunner first = h.runner(alloc(id, "service", null, task("t", Map.of("run_for", "1h"))));
        first.start();
        await().until(() -> first.taskStates().get("t").running());
        first.shutdown(Duration.ofSeconds(5));
        h.runners.remove(first);
        AllocRunner restored = new AllocRunner(h.context(Duration.ofSeconds(30)), h.store.alloc(id).orElseThrow(), true);
        h.runners.add(restored);
        return restored;
    }

    @Test
    void aRunningTaskIsReattachedWithoutANewStart() throws Exception {
        AllocRunner r = runUntilRunningThenShutDown("re1");
        assertThat(r.taskStates().get("t").running()).isTrue();
        r.start();
        await().until(() -> h.store.taskLocalState("re1", "t").orElseThrow().handle() != null);
        TaskState s = r.taskStates().get("t");
        assertThat(types(s)).containsExactly("Received", "Task Setup", "Started");
        r.killTasks("test");
        assertThat(types(r.taskStates().get("t"))).endsWith("Started", "Killing", "Terminated", "Killed");
        assertThat(h.store.taskStates("re1").get("t").dead()).isTrue();
    }

    @Test
    void poststartHooksSeeTheReattachedTask() throws Exception {
        List<dev.berth.driver.TaskHandle> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        h.extraTaskHooks.add(new dev.berth.alloc.task.TaskHooks.TaskPoststartHook() {
            @Override
            public String name() {
                return "recording";
            }

            @Override
            public void poststart(dev.berth.alloc.task.TaskHookContext context, dev.berth.driver.TaskHandle handle) {
                seen.add(handle);
            }
        });
        AllocRunner r = runUntilRunningThenShutDown("re4");
        await().until(() -> seen.size() == 1); // the first start

        r.start();

        await().until(() -> seen.size() == 2);
        assertThat(seen.get(1).taskId()).isEqualTo(seen.get(0).taskId());
        assertThat(types(r.taskStates().get("t"))).containsExactly("Received", "Task Setup", "Started");
        r.killTasks("test");
    }

    @Test
    void aTaskTheDriverLostFollowsItsRestartPolicy() throws Exception {
        AllocRunner r = runUntilRunningThenShutDown("re2");
        var handle = h.store.taskLocalState("re2", "t").orElseThrow().handle();
        h.mock.destroy(handle, true);
        r.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> types(r.taskStates().get("t")).stream().filter("Started"::equals).count() == 2);
        assertThat(types(r.taskStates().get("t"))).containsSubsequence("Started", "Failed Restoring Task", "Restarting", "Started");
        // task_dir reported done before the restart: it is not run again (its env still applies)
        assertThat(types(r.taskStates().get("t")).stream().filter("Task Setup"::equals).count()).isEqualTo(1);
        assertThat(h.sleeps).hasSize(1);
    }

    @Test
    void aFinishedAllocStaysFinished() throws Exception {
        AllocRunner first = h.runner(alloc("re3", "batch", null, task("t", Map.of("run_for", "1ms"))));
        first.start();
        await().until(() -> first.runDone().isDone());
        AllocRunner restored = new AllocRunner(h.context(Duration.ofSeconds(30)), h.store.alloc("re3").orElseThrow(), true);
        h.runners.add(restored);
        restored.start();
        await().until(() -> restored.runDone().isDone());
        assertThat(types(restored.taskStates().get("t"))).containsExactly("Received", "Task Setup", "Started", "Terminated");
        assertThat(restored.record().clientStatus()).isEqualTo(ClientStatus.COMPLETE);
    }
}
