package dev.berth.alloc.runner;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.spec.AllocSpecs;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.store.AllocRecord;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskLocalState;
import dev.berth.alloc.task.TaskState;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskHandle;

import static dev.berth.alloc.runner.RunnerHarness.alloc;
import static dev.berth.alloc.runner.RunnerHarness.task;
import static dev.berth.alloc.runner.RunnerHarness.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 7, crash window: the agent died after the driver started the task and its handle was persisted, but before the
 * {@code Started} event. The restore must reattach that process (and record {@code Started} once), never start a second one.
 */
class PendingWithHandleRestoreTest {

    @TempDir
    Path dir;
    RunnerHarness h;

    @AfterEach
    void tearDown() throws Exception {
        h.close();
    }

    @Test
    void aPendingTaskWithAPersistedHandleIsReattachedNotStartedAgain() throws Exception {
        h = new RunnerHarness(dir);
        AllocationSpec spec = AllocSpecs.withDefaults(alloc("p1", "service", null, task("t", Map.of("run_for", "1h"))), Duration.ofSeconds(30));
        AllocRecord rec = new AllocRecord(spec, ClientStatus.PENDING, "No tasks have started");
        h.store.putAlloc(rec);
        var now = h.clock.instant();
        h.store.putTaskState("p1", "t", TaskState.initial().withEvent(TaskEvent.received(now)).withEvent(TaskEvent.taskSetup(now)));
        TaskHandle running = h.mock.start(new TaskConfig("p1/t", "p1", "t", "job1", "web", "default", Map.of("run_for", "1h"), Map.of(),
                dir, dir, null, null, 100, 64, 0, List.of()));
        h.store.putTaskLocalState("p1", "t", new TaskLocalState(running, java.util.Map.of("task_dir", new dev.berth.alloc.task.HookState(true, java.util.Map.of(), java.util.List.of())), null, false));

        AllocRunner restored = new AllocRunner(h.context(Duration.ofSeconds(30)), rec, true);
        h.runners.add(restored);
        restored.start();

        await().atMost(Duration.ofSeconds(10)).until(() -> restored.taskStates().get("t").running());
        assertThat(types(restored.taskStates().get("t"))).containsExactly("Received", "Task Setup", "Started");
        assertThat(h.mock.waitTask(running)).isNotDone();
        assertThat(h.store.taskLocalState("p1", "t").orElseThrow().handle()).isEqualTo(running);
    }
}
