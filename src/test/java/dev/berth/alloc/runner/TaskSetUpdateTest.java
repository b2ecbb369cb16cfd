package dev.berth.alloc.runner;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.JobSpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskState;

import static dev.berth.alloc.runner.RunnerHarness.alloc;
import static dev.berth.alloc.runner.RunnerHarness.lifecycle;
import static dev.berth.alloc.runner.RunnerHarness.task;
import static dev.berth.alloc.runner.RunnerHarness.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** An alloc update that removes or adds tasks converges: removed tasks are killed and stay dead, added ones start. */
class TaskSetUpdateTest {

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

    /** The same alloc with another task list and a higher AllocModifyIndex. */
    static AllocationSpec withTasks(AllocationSpec base, long index, TaskSpec... tasks) {
        TaskGroupSpec g = base.group().orElseThrow();
        TaskGroupSpec group = new TaskGroupSpec(g.name(), g.count(), List.of(tasks), g.restartPolicy(), g.networks(), g.meta(),
                g.ephemeralDisk());
        JobSpec j = base.job();
        JobSpec job = new JobSpec(j.id(), j.name(), j.type(), j.namespace(), j.region(), j.parentId(), j.meta(), List.of(group));
        return dev.berth.alloc.spec.AllocSpecs.withDefaults(new AllocationSpec(base.id(), base.name(), base.namespace(), base.jobId(),
                job, base.taskGroup(), "run", index, null, base.allocatedResources()), Duration.ofSeconds(30));
    }

    private static TaskSpec slowToDie(String name) {
        // kill_after: the mock task exits only this long after it was told to stop, within its 5 s kill timeout
        return task(name, Map.of("run_for", "1h", "kill_after", "300ms"));
    }

    @Test
    void aTaskTheUpdateNoLongerListsIsKilledAndStaysDeadAcrossARestore() throws Exception {
        AllocationSpec spec = alloc("u1", "service", null, task("web", Map.of("run_for", "1h")), slowToDie("old"));
        AllocRunner r = h.runner(spec);
        r.start();
        await().until(() -> r.taskStates().values().stream().allMatch(TaskState::running));
        var oldHandle = h.store.taskLocalState("u1", "old").orElseThrow().handle();

        r.update(withTasks(r.record().spec(), 11, task("web", Map.of("run_for", "1h"))));

        await().atMost(Duration.ofSeconds(10)).until(() -> r.taskStates().get("old").dead());
        TaskState old = r.taskStates().get("old");
        assertThat(types(old)).endsWith("Started", "Killing", "Terminated", "Killed");
        TaskEvent killing = old.events().get(old.events().size() - 3);
        assertThat(killing.detail("kill_reason")).isEqualTo("update missing task");
        assertThat(killing.killTimeoutNs()).isEqualTo(Duration.ofSeconds(5).toNanos());
        TaskEvent killed = old.events().getLast();
        assertThat(killed.detail("kill_reason")).isEqualTo("update missing task");
        assertThat(killed.displayMessage()).isEqualTo("Task successfully killed");
        // the kill waited for the process to end (kill_after), and it did not fail the task or its sibling
        assertThat(Duration.between(killing.time(), killed.time())).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(h.mock.waitTask(oldHandle)).isDone();
        assertThat(old.failed()).isFalse();
        assertThat(r.taskStates().get("web").running()).isTrue();
        assertThat(r.record().clientStatus()).isEqualTo(ClientStatus.RUNNING);
        assertThat(r.task("old")).isNull();
        assertThat(r.taskRunners()).extracting(tr -> tr.name()).containsExactly("web");

        // persisted: the spec without the task, the task dead and without a handle
        assertThat(h.store.alloc("u1").orElseThrow().spec().group().orElseThrow().tasks()).extracting(TaskSpec::name).containsExactly("web");
        assertThat(h.store.taskStates("u1").get("old").dead()).isTrue();
        assertThat(h.store.taskLocalState("u1", "old").orElseThrow().handle()).isNull();

        // an agent restart does not bring it back
        r.shutdown(Duration.ofSeconds(5));
        h.runners.remove(r);
        AllocRunner restored = new AllocRunner(h.context(Duration.ofSeconds(30)), h.store.alloc("u1").orElseThrow(), true);
        h.runners.add(restored);
        restored.start();
        await().until(() -> h.store.taskLocalState("u1", "web").orElseThrow().handle() != null);
        assertThat(restored.taskRunners()).extracting(tr -> tr.name()).containsExactly("web");
        assertThat(restored.taskStates()).containsKeys("web", "old");
        assertThat(restored.taskStates().get("old").dead()).isTrue();
        assertThat(types(restored.taskStates().get("old"))).endsWith("Killed");
        assertThat(restored.taskStates().get("web").running()).isTrue();
        assertThat(h.mock.waitTask(oldHandle)).isDone();
    }

    @Test
    void aTaskTheUpdateAddsStartsAsANewRunner() {
        AllocRunner r = h.runner(alloc("u2", "service", null, task("web", Map.of("run_for", "1h"))));
        r.start();
        await().until(() -> r.taskStates().get("web").running());

        r.update(withTasks(r.record().spec(), 11, task("web", Map.of("run_for", "1h")), task("extra", Map.of("run_for", "1h"))));

        await().atMost(Duration.ofSeconds(10)).until(() -> r.taskStates().get("extra") != null && r.taskStates().get("extra").running());
        assertThat(types(r.taskStates().get("extra"))).containsExactly("Received", "Task Setup", "Started");
        assertThat(types(r.taskStates().get("web"))).containsExactly("Received", "Task Setup", "Started");
        assertThat(r.taskRunners()).extracting(tr -> tr.name()).containsExactly("web", "extra");
        assertThat(h.store.taskStates("u2").get("extra").running()).isTrue();
        assertThat(h.store.taskLocalState("u2", "extra").orElseThrow().handle()).isNotNull();
        assertThat(r.dir().taskDir("extra").resolve("local")).isDirectory();
    }

    @Test
    void anAddedPrestartTaskRunsAtOnceAndAnAddedPoststopTaskRunsAtTheEnd() throws Exception {
        AllocRunner r = h.runner(alloc("u3", "batch", null, task("main", Map.of("run_for", "1h"))));
        r.start();
        await().until(() -> r.taskStates().get("main").running());

        r.update(withTasks(r.record().spec(), 11, task("main", Map.of("run_for", "1h")),
                lifecycle(task("setup", Map.of("run_for", "10ms")), "prestart", false),
                lifecycle(task("cleanup", Map.of("run_for", "10ms")), "poststop", false)));

        // the main tasks already run: a prestart task added now cannot precede them, it runs at once
        await().atMost(Duration.ofSeconds(10)).until(() -> r.taskStates().get("setup") != null && r.taskStates().get("setup").dead());
        assertThat(types(r.taskStates().get("setup"))).containsExactly("Received", "Task Setup", "Started", "Terminated");
        assertThat(r.taskStates().get("cleanup").pending()).isTrue();
        assertThat(r.taskStates().get("main").running()).isTrue();

        r.task("main").kill("test");
        await().atMost(Duration.ofSeconds(10)).until(() -> r.taskStates().get("cleanup").dead());
        assertThat(r.taskStates().get("cleanup").startedAt()).isAfterOrEqualTo(r.taskStates().get("main").finishedAt());
        await().until(() -> r.runDone().isDone());
    }

    @Test
    void removingAndAddingInOneUpdateReplacesTheTask() {
        AllocRunner r = h.runner(alloc("u4", "service", null, task("a", Map.of("run_for", "1h")), task("b", Map.of("run_for", "1h"))));
        r.start();
        await().until(() -> r.taskStates().values().stream().allMatch(TaskState::running));

        r.update(withTasks(r.record().spec(), 11, task("a", Map.of("run_for", "1h")), task("c", Map.of("run_for", "1h"))));

        await().atMost(Duration.ofSeconds(10)).until(() -> r.taskStates().get("c") != null && r.taskStates().get("c").running());
        assertThat(r.taskStates().get("b").dead()).isTrue();
        assertThat(r.taskStates().get("a").running()).isTrue();
        assertThat(r.record().clientStatus()).isEqualTo(ClientStatus.RUNNING);
    }

    @Test
    void removingOneOfTwoMainTasksKeepsTheSidecar() {
        AllocRunner r = h.runner(alloc("u5", "batch", null, lifecycle(task("proxy", Map.of("run_for", "1h")), "prestart", true),
                task("main", Map.of("run_for", "1h")), task("other", Map.of("run_for", "1h"))));
        r.start();
        await().until(() -> r.taskStates().values().stream().allMatch(TaskState::running));

        r.update(withTasks(r.record().spec(), 11, lifecycle(task("proxy", Map.of("run_for", "1h")), "prestart", true),
                task("main", Map.of("run_for", "1h"))));
        await().atMost(Duration.ofSeconds(10)).until(() -> r.taskStates().get("other").dead());
        assertThat(r.taskStates().get("proxy").running()).isTrue();
        assertThat(r.taskStates().get("main").running()).isTrue();
    }

    @Test
    void anUpdateBeforeTheRunStartsOnlyChangesTheRunners() throws Exception {
        AllocRunner r = h.runner(alloc("u6", "batch", null, task("a", Map.of("run_for", "10ms")), task("b", Map.of("run_for", "10ms"))));
        r.update(withTasks(r.record().spec(), 11, task("a", Map.of("run_for", "10ms")), task("c", Map.of("run_for", "10ms"))));
        assertThat(r.taskStates()).containsOnlyKeys("a", "c");
        r.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> r.runDone().isDone());
        assertThat(types(r.taskStates().get("c"))).containsExactly("Received", "Task Setup", "Started", "Terminated");
        assertThat(r.record().clientStatus()).isEqualTo(ClientStatus.COMPLETE);
    }
}
