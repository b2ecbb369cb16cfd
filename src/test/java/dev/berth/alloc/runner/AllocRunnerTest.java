package dev.berth.alloc.runner;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.fs.AllocDir;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.RestartPolicySpec;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.alloc.task.TaskEnvironment;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskRunner;
import dev.berth.alloc.task.TaskState;

import static dev.berth.alloc.runner.RunnerHarness.alloc;
import static dev.berth.alloc.runner.RunnerHarness.task;
import static dev.berth.alloc.runner.RunnerHarness.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** AllocRunner + TaskRunner against the real mock_driver: every event path of Nomad's alloc and task runners. */
class AllocRunnerTest {

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

    private static RestartPolicySpec policy(int attempts, Duration delay, String mode) {
        return new RestartPolicySpec(attempts, Duration.ofMinutes(30).toNanos(), delay.toNanos(), mode);
    }

    private TaskState awaitDead(AllocRunner r, String task) {
        await().atMost(Duration.ofSeconds(20)).until(() -> r.taskStates().get(task).dead());
        return r.taskStates().get(task);
    }

    @Test
    void batchTaskRunsToCompletion() {
        AllocRunner r = h.runner(alloc("a1", "batch", null, task("t", Map.of("run_for", "10ms"))));
        r.start();
        TaskState s = awaitDead(r, "t");
        assertThat(types(s)).containsExactly("Received", "Task Setup", "Started", "Terminated");
        assertThat(s.failed()).isFalse();
        assertThat(s.startedAt()).isNotNull();
        assertThat(s.finishedAt()).isNotNull();
        await().until(() -> r.runDone().isDone());
        assertThat(r.record().clientStatus()).isEqualTo(ClientStatus.COMPLETE);
        assertThat(h.store.alloc("a1").orElseThrow().clientStatus()).isEqualTo(ClientStatus.COMPLETE);
        assertThat(h.store.taskStates("a1").get("t")).isEqualTo(s);
        assertThat(h.finished).containsExactly("a1");
        assertThat(s.events().get(1).message()).isEqualTo("Building Task Directory");
        assertThat(r.dir().sharedDir().resolve("logs")).isDirectory();
    }

    /** A store that failed the task's first writes (Received, Task Setup, the handle) does not stop the run. */
    @Test
    void taskWritesTheStoreFailsDoNotStopTheRunAndTheNextWriteStoresTheWholeState() {
        h.store.failingTaskWrites.set(3);
        AllocRunner r = h.runner(alloc("a1", "batch", null, task("t", Map.of("run_for", "10ms"))));
        r.start();
        TaskState s = awaitDead(r, "t");
        assertThat(types(s)).containsExactly("Received", "Task Setup", "Started", "Terminated");
        assertThat(s.failed()).isFalse();
        await().until(() -> r.runDone().isDone());
        assertThat(h.store.failingTaskWrites).hasValue(0);
        assertThat(h.store.taskStates("a1").get("t")).isEqualTo(s);
        assertThat(r.record().clientStatus()).isEqualTo(ClientStatus.COMPLETE);
    }

    @Test
    void restartDelaysAreExactlyWhatThePolicyReturns() {
        Duration delay = Duration.ofSeconds(2);
        AllocRunner r = h.runner(alloc("a2", "service", policy(2, delay, "fail"), task("t", Map.of("run_for", "1ms", "exit_code", 3))));
        r.start();
        TaskState s = awaitDead(r, "t");
        // jitter is (delay-1ns)*0.25 with the harness' random
        long jitter = (long) ((delay.toNanos() - 1) * 0.25);
        assertThat(h.sleeps).containsExactly(delay.plusNanos(jitter), delay.plusNanos(jitter));
        assertThat(types(s)).containsSubsequence("Started", "Terminated", "Restarting", "Started", "Terminated", "Restarting",
                "Started", "Terminated", "Not Restarting");
        assertThat(s.restarts()).isEqualTo(2);
        assertThat(s.failed()).isTrue();
        TaskEvent restarting = s.events().stream().filter(e -> e.type().equals("Restarting")).findFirst().orElseThrow();
        assertThat(restarting.startDelayNs()).isEqualTo(delay.plusNanos(jitter).toNanos());
        assertThat(restarting.displayMessage()).startsWith("Task restarting in 2.");
        TaskEvent last = s.events().getLast();
        assertThat(last.detail("restart_reason")).isEqualTo("Exceeded allowed attempts 2 in interval 30m0s and mode is \"fail\"");
        await().until(() -> r.record().clientStatus().equals(ClientStatus.FAILED));
        assertThat(r.record().clientDescription()).isEqualTo("Failed tasks");
    }

    @Test
    void invalidDriverConfigFailsValidationWithoutRestart() {
        AllocRunner r = h.runner(alloc("a3", "service", null, task("t", Map.of("bogus", 1))));
        r.start();
        TaskState s = awaitDead(r, "t");
        assertThat(types(s)).containsExactly("Received", "Failed Validation", "Not Restarting");
        assertThat(s.events().get(2).detail("restart_reason")).isEqualTo("Error was unrecoverable");
        assertThat(s.failed()).isTrue();
        assertThat(h.sleeps).isEmpty();
    }

    @Test
    void unrecoverableStartErrorIsDriverFailure() {
        AllocRunner r = h.runner(alloc("a4", "service", null, task("t", Map.of("start_error", "boom"))));
        r.start();
        TaskState s = awaitDead(r, "t");
        assertThat(types(s)).containsExactly("Received", "Task Setup", "Driver Failure", "Not Restarting");
        assertThat(s.events().get(2).detail("driver_error")).isEqualTo("boom");
    }

    @Test
    void recoverableStartErrorFollowsThePolicy() {
        AllocRunner r = h.runner(alloc("a5", "service", policy(1, Duration.ofSeconds(1), "fail"),
                task("t", Map.of("start_error", "flaky", "start_error_recoverable", true))));
        r.start();
        TaskState s = awaitDead(r, "t");
        assertThat(types(s)).containsSubsequence("Driver Failure", "Restarting", "Driver Failure", "Not Restarting");
        assertThat(h.sleeps).hasSize(1);
    }

    @Test
    void killEmitsKillingTerminatedKilled() throws Exception {
        AllocationSpec spec = alloc("a6", "service", null, task("t", Map.of("run_for", "1h")));
        AllocRunner r = h.runner(spec);
        r.start();
        await().until(() -> r.taskStates().get("t").running());
        r.killTasks("test");
        TaskState s = r.taskStates().get("t");
        assertThat(types(s)).endsWith("Started", "Killing", "Terminated", "Killed");
        TaskEvent killing = s.events().get(s.events().size() - 3);
        assertThat(killing.killTimeoutNs()).isEqualTo(Duration.ofSeconds(5).toNanos());
        assertThat(killing.displayMessage()).isEqualTo("Sent interrupt. Waiting 5s before force killing");
        assertThat(s.dead()).isTrue();
        assertThat(s.failed()).isFalse();
    }

    @Test
    void failedTaskKillsItsSiblings() {
        AllocRunner r = h.runner(alloc("a7", "service", null, task("bad", Map.of("bogus", 1)), task("good", Map.of("run_for", "1h"))));
        r.start();
        TaskState good = awaitDead(r, "good");
        assertThat(types(good)).contains("Sibling Task Failed", "Killed");
        TaskEvent sibling = good.events().stream().filter(e -> e.type().equals("Sibling Task Failed")).findFirst().orElseThrow();
        assertThat(sibling.detail("failed_sibling")).isEqualTo("bad");
        assertThat(sibling.displayMessage()).isEqualTo("Task's sibling \"bad\" failed");
        await().until(() -> r.record().clientStatus().equals(ClientStatus.FAILED));
    }

    @Test
    void deadLeaderKillsTheOthers() {
        AllocRunner r = h.runner(alloc("a8", "batch", null, RunnerHarness.leader(task("leader", Map.of("run_for", "20ms"))),
                task("follower", Map.of("run_for", "1h"))));
        r.start();
        TaskState follower = awaitDead(r, "follower");
        assertThat(types(follower)).contains("Leader Task Dead", "Killing", "Killed");
        assertThat(follower.failed()).isFalse();
        await().until(() -> r.record().clientStatus().equals(ClientStatus.COMPLETE));
    }

    @Test
    void prestartTaskGatesTheMainTask() {
        AllocRunner r = h.runner(alloc("a9", "batch", null,
                RunnerHarness.lifecycle(task("init", Map.of("run_for", "50ms")), "prestart", false),
                task("main", Map.of("run_for", "1ms"))));
        r.start();
        TaskState main = awaitDead(r, "main");
        TaskState init = r.taskStates().get("init");
        assertThat(init.finishedAt()).isNotNull();
        assertThat(main.startedAt()).isAfterOrEqualTo(init.finishedAt());
    }

    @Test
    void poststopRunsAfterMainTasks() {
        AllocRunner r = h.runner(alloc("a10", "batch", null, task("main", Map.of("run_for", "20ms")),
                RunnerHarness.lifecycle(task("cleanup", Map.of("run_for", "1ms")), "poststop", false)));
        r.start();
        TaskState cleanup = awaitDead(r, "cleanup");
        assertThat(cleanup.startedAt()).isAfterOrEqualTo(r.taskStates().get("main").finishedAt());
    }

    @Test
    void sidecarIsKilledWhenMainTasksAreDead() {
        AllocRunner r = h.runner(alloc("a11", "batch", null,
                RunnerHarness.lifecycle(task("proxy", Map.of("run_for", "1h")), "prestart", true),
                task("main", Map.of("run_for", "20ms"))));
        r.start();
        TaskState proxy = awaitDead(r, "proxy");
        assertThat(types(proxy)).contains("Main Tasks Dead", "Killed");
    }

    @Test
    void userRestartRerunsWithoutDelayAndWithoutUsingAttempts() throws Exception {
        AllocRunner r = h.runner(alloc("a12", "service", null, task("t", Map.of("run_for", "1h"))));
        r.start();
        await().until(() -> r.taskStates().get("t").running());
        r.task("t").restart("User requested task to restart", false);
        await().until(() -> types(r.taskStates().get("t")).stream().filter("Started"::equals).count() == 2);
        TaskState s = r.taskStates().get("t");
        assertThat(types(s)).containsSubsequence("Started", "Restart Signaled", "Terminated", "Restarting", "Started");
        assertThat(h.sleeps).containsExactly(Duration.ZERO);
        assertThat(s.events().stream().filter(e -> e.type().equals("Restart Signaled")).findFirst().orElseThrow()
                .detail("restart_reason")).isEqualTo("User requested task to restart");
    }

    @Test
    void signalGoesToTheDriverWithAnEvent() throws Exception {
        AllocRunner r = h.runner(alloc("a13", "service", null, task("t", Map.of("run_for", "1h"))));
        r.start();
        await().until(() -> r.taskStates().get("t").running());
        r.task("t").signal("SIGUSR1", "User requested signal");
        assertThat(h.mock.receivedSignals("a13/t")).containsExactly("SIGUSR1");
        assertThat(types(r.taskStates().get("t"))).endsWith("Signaling");
    }

    @Test
    void signalOrRestartOfAPendingTaskIsRefused() {
        AllocRunner r = h.runner(alloc("a14", "service", null, task("t", Map.of("run_for", "1h"))));
        assertThatExceptionOfType(TaskRunner.TaskNotRunningException.class).isThrownBy(() -> r.task("t").signal("SIGUSR1", "x"))
                .withMessage("Task not running");
        assertThatExceptionOfType(TaskRunner.TaskNotRunningException.class).isThrownBy(() -> r.task("t").restart("x", false));
    }

    @Test
    void stopArrivesAsAnUpdateAndStaleUpdatesAreIgnored() {
        AllocationSpec spec = alloc("a15", "service", null, task("t", Map.of("run_for", "1h")));
        AllocRunner r = h.runner(spec);
        r.start();
        await().until(() -> r.taskStates().get("t").running());
        // stale: same index → nothing happens
        r.update(h.store.alloc("a15").orElseThrow().spec().withDesiredStatus("stop"));
        AllocationSpec current = r.record().spec();
        AllocationSpec stop = new AllocationSpec(current.id(), current.name(), current.namespace(), current.jobId(), current.job(),
                current.taskGroup(), "stop", 11L, null, null);
        r.update(stop);
        TaskState s = awaitDead(r, "t");
        assertThat(types(s)).endsWith("Killing", "Terminated", "Killed");
        assertThat(r.record().spec().desiredStatus()).isEqualTo("stop");
        assertThat(r.record().spec().modifyIndex()).isEqualTo(11);
        // an older update after the stop changes nothing
        r.update(current);
        assertThat(r.record().spec().modifyIndex()).isEqualTo(11);
        assertThat(h.store.alloc("a15").orElseThrow().spec().desiredStatus()).isEqualTo("stop");
    }

    @Test
    void queuedUpdatesCollapseToTheNewest() {
        AllocRunner r = h.runner(alloc("a19", "service", null, task("t", Map.of("run_for", "1h"))));
        r.start();
        await().until(() -> r.taskStates().get("t").running());
        AllocationSpec base = r.record().spec();
        for (long index : new long[] {12, 14, 13}) {
            Map<String, String> meta = Map.of("rev", Long.toString(index));
            var job = new dev.berth.alloc.spec.JobSpec(base.job().id(), base.job().name(), base.job().type(), base.job().namespace(),
                    base.job().region(), base.job().parentId(), meta, base.job().taskGroups());
            r.update(new AllocationSpec(base.id(), base.name(), base.namespace(), base.jobId(), job, base.taskGroup(), "run", index, null, null));
        }
        await().until(() -> r.record().spec().modifyIndex() == 14);
        assertThat(r.record().spec().job().meta()).containsEntry("rev", "14");
        assertThat(h.store.alloc("a19").orElseThrow().spec().modifyIndex()).isEqualTo(14);
        assertThat(r.taskStates().get("t").running()).isTrue();
    }

    @Test
    void destroyOfANeverStartedRunnerReturnsAndLeavesNoState() throws Exception {
        AllocRunner r = h.runner(alloc("a16", "service", null, task("t", Map.of("run_for", "1h"))));
        r.destroy().get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(h.store.alloc("a16")).isEmpty();
        assertThat(h.store.isDeleted("a16")).isTrue();
        r.start();
        assertThat(r.runDone()).isNotDone();
        assertThat(r.taskStates().get("t").events()).isEmpty();
    }

    @Test
    void destroyKillsRemovesTheDirAndIsNotResurrectedByLateWrites() throws Exception {
        AllocRunner r = h.runner(alloc("a17", "service", null, task("t", Map.of("run_for", "1h"))));
        r.start();
        await().until(() -> r.taskStates().get("t").running());
        r.destroy().get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(r.destroy()).isDone();
        assertThat(r.dir().path()).doesNotExist();
        assertThat(h.store.alloc("a17")).isEmpty();
        r.task("t").emit(TaskEvent.received(h.clock.instant()));
        assertThat(h.store.taskStates("a17")).isEmpty();
        assertThat(h.store.putAlloc(r.record())).isFalse();
    }

    @Test
    void shutdownLeavesTheTaskRunning() throws Exception {
        AllocRunner r = h.runner(alloc("a18", "service", null, task("t", Map.of("run_for", "1h"))));
        r.start();
        await().until(() -> r.taskStates().get("t").running());
        var handle = h.store.taskLocalState("a18", "t").orElseThrow().handle();
        r.shutdown(Duration.ofSeconds(5));
        assertThat(r.runDone()).isDone();
        assertThat(r.task("t").done()).isDone();
        assertThat(h.mock.waitTask(handle)).isNotDone();
        assertThat(types(r.taskStates().get("t"))).doesNotContain("Killing", "Killed");
        assertThat(h.finished).isEmpty();
        h.mock.stop(handle, Duration.ZERO, null);
    }

    @Test
    void taskEnvironmentHasNomadVariables() throws Exception {
        var env = TaskEnvironment.build(RunnerHarness.alloc("0123456789abcdef", "service", null, task("t", Map.of())),
                RunnerHarness.alloc("0123456789abcdef", "service", null, task("t", Map.of())).group().orElseThrow(),
                new dev.berth.alloc.spec.TaskSpec("t", "mock_driver", Map.of(), Map.of("NOMAD_DC", "mine", "X", "1"),
                        new dev.berth.alloc.spec.ResourcesSpec(250, 128, 256, null), null, null, null, null, null,
                        Map.of("tier-x", "gold"), null),
                new AllocDir(dir, "0123456789abcdef"), "dc1", Map.of("PATH", "/usr/bin", "SECRET", "s"));
        assertThat(env).containsEntry("NOMAD_ALLOC_ID", "0123456789abcdef").containsEntry("NOMAD_SHORT_ALLOC_ID", "01234567")
                .containsEntry("NOMAD_ALLOC_NAME", "job1.web[0]").containsEntry("NOMAD_ALLOC_INDEX", "0")
                .containsEntry("NOMAD_TASK_NAME", "t").containsEntry("NOMAD_GROUP_NAME", "web").containsEntry("NOMAD_JOB_ID", "job1")
                .containsEntry("NOMAD_JOB_NAME", "job1").containsEntry("NOMAD_NAMESPACE", "default").containsEntry("NOMAD_REGION", "global")
                .containsEntry("NOMAD_MEMORY_LIMIT", "128").containsEntry("NOMAD_MEMORY_MAX_LIMIT", "256").containsEntry("NOMAD_CPU_LIMIT", "250")
                .containsEntry("NOMAD_META_TIER_X", "gold").containsEntry("NOMAD_META_tier_x", "gold").containsEntry("NOMAD_META_OWNER", "me")
                .containsEntry("NOMAD_META_GM", "1").containsEntry("PATH", "/usr/bin").containsEntry("X", "1")
                .containsEntry("NOMAD_TASK_DIR", dir.resolve("0123456789abcdef/t/local").toString())
                .doesNotContainKey("SECRET");
        // task Env wins over built-ins
        assertThat(env).containsEntry("NOMAD_DC", "mine");
        assertThat(List.of()).isEmpty();
    }
}
