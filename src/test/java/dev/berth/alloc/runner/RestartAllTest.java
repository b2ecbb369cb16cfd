package dev.berth.alloc.runner;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.store.ClientStatus;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskState;

import static dev.berth.alloc.runner.RunnerHarness.alloc;
import static dev.berth.alloc.runner.RunnerHarness.lifecycle;
import static dev.berth.alloc.runner.RunnerHarness.task;
import static dev.berth.alloc.runner.RunnerHarness.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code AllTasks} restart (Nomad's RestartAll/ForceRestart): dead tasks whose run is not over rerun, prestart first. */
class RestartAllTest {

    static final String REASON = "User requested all tasks to restart";

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

    private static List<Instant> times(TaskState s, String type) {
        return s.events().stream().filter(e -> e.type().equals(type)).map(TaskEvent::time).toList();
    }

    @Test
    void aCompletedPrestartTaskRerunsThenTheMainTask() throws Exception {
        AllocRunner r = h.runner(alloc("ra1", "service", null,
                lifecycle(task("init", Map.of("run_for", "200ms")), "prestart", false),
                task("main", Map.of("run_for", "1h"))));
        r.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> r.taskStates().get("main").running());
        assertThat(r.taskStates().get("init").dead()).isTrue();
        // the dead prestart task's run is not over while its alloc lives
        assertThat(r.task("init").done()).isNotDone();
        var oldMain = h.store.taskLocalState("ra1", "main").orElseThrow().handle();

        r.restartAll(REASON);

        // blocks until the old process exited
        assertThat(h.mock.waitTask(oldMain)).isDone();
        await().atMost(Duration.ofSeconds(10)).until(() -> times(r.taskStates().get("main"), "Started").size() == 2);
        TaskState init = r.taskStates().get("init");
        TaskState main = r.taskStates().get("main");
        assertThat(types(init)).containsExactly("Received", "Task Setup", "Started", "Terminated", "Restart Signaled", "Restarting",
                "Started", "Terminated");
        assertThat(types(main)).containsExactly("Received", "Task Setup", "Started", "Restart Signaled", "Terminated", "Restarting",
                "Started");
        TaskEvent signaled = init.events().get(4);
        assertThat(signaled.detail("restart_reason")).isEqualTo(REASON);
        assertThat(signaled.displayMessage()).isEqualTo(REASON);
        assertThat(main.events().get(3).detail("restart_reason")).isEqualTo(REASON);
        // the main task started again only after the prestart task finished again
        assertThat(times(main, "Started").get(1)).isAfterOrEqualTo(times(init, "Terminated").get(1));
        // user restarts use no attempts and no delay
        assertThat(h.sleeps).containsOnly(Duration.ZERO);
        assertThat(init.dead()).isTrue();
        assertThat(init.failed()).isFalse();
        assertThat(r.record().clientStatus()).isEqualTo(ClientStatus.RUNNING);
        assertThat(h.store.taskLocalState("ra1", "init").orElseThrow().runComplete()).isFalse();
    }

    @Test
    void aPoststopTaskIsNotRestartedAndRunsAtTheEnd() throws Exception {
        AllocRunner r = h.runner(alloc("ra2", "batch", null, task("main", Map.of("run_for", "1h")),
                lifecycle(task("cleanup", Map.of("run_for", "10ms")), "poststop", false)));
        r.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> r.taskStates().get("main").running());

        r.restartAll(REASON);

        await().atMost(Duration.ofSeconds(10)).until(() -> times(r.taskStates().get("main"), "Started").size() == 2);
        assertThat(types(r.taskStates().get("cleanup"))).doesNotContain("Restart Signaled", "Started");
        r.task("main").kill("test");
        await().atMost(Duration.ofSeconds(10)).until(() -> r.runDone().isDone());
        assertThat(types(r.taskStates().get("cleanup"))).containsExactly("Received", "Task Setup", "Started", "Terminated");
    }

    @Test
    void onceTheAllocIsDoneTheWaitingTasksFinishTheirRun() {
        AllocRunner r = h.runner(alloc("ra3", "batch", null, lifecycle(task("init", Map.of("run_for", "10ms")), "prestart", false),
                task("main", Map.of("run_for", "50ms"))));
        r.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> r.runDone().isDone());
        assertThat(r.task("init").done()).isDone();
        assertThat(r.task("main").done()).isDone();
        assertThat(h.store.taskLocalState("ra3", "init").orElseThrow().runComplete()).isTrue();
        assertThat(types(r.taskStates().get("init"))).containsExactly("Received", "Task Setup", "Started", "Terminated");
        assertThat(r.record().clientStatus()).isEqualTo(ClientStatus.COMPLETE);
    }

    @Test
    void aRestoredDeadTaskWhoseRunWasNotOverCanStillBeRestarted() throws Exception {
        AllocRunner first = h.runner(alloc("ra4", "service", null,
                lifecycle(task("init", Map.of("run_for", "10ms")), "prestart", false), task("main", Map.of("run_for", "1h"))));
        first.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> first.taskStates().get("main").running());
        first.shutdown(Duration.ofSeconds(5));
        h.runners.remove(first);
        AllocRunner r = new AllocRunner(h.context(Duration.ofSeconds(30)), h.store.alloc("ra4").orElseThrow(), true);
        h.runners.add(r);
        r.start();
        await().until(() -> h.store.taskLocalState("ra4", "main").orElseThrow().handle() != null);
        await().atMost(Duration.ofSeconds(5)).until(() -> !r.task("init").done().isDone());

        r.restartAll(REASON);

        await().atMost(Duration.ofSeconds(10)).until(() -> times(r.taskStates().get("init"), "Started").size() == 2
                && times(r.taskStates().get("main"), "Started").size() == 2);
        assertThat(types(r.taskStates().get("init"))).containsSubsequence("Terminated", "Restart Signaled", "Restarting", "Started");
    }
}
