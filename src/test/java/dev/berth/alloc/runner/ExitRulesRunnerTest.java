package dev.berth.alloc.runner;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.spec.RestartPolicySpec;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskState;
import dev.berth.config.Sleeper;
import dev.berth.driver.rawexec.RawExecDriver;

import static dev.berth.alloc.runner.RawExecRunnerTest.alloc;
import static dev.berth.alloc.runner.RawExecRunnerTest.sh;
import static dev.berth.alloc.runner.RunnerHarness.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The restart policy's exit rules on real raw_exec processes exiting with given codes and signals. */
class ExitRulesRunnerTest {

    private static final Duration DELAY = Duration.ofMillis(300);
    /** The harness' jitter is the maximum: delay + (delay - 1 ns) * 0.25. */
    private static final Duration JITTERED = DELAY.plusNanos((long) ((DELAY.toNanos() - 1) * 0.25));

    @TempDir
    Path dir;
    RunnerHarness h;

    @BeforeEach
    void setUp() {
        RawExecDriver raw = RunnerHarness.rawExec(dir, "test-rules-");
        h = new RunnerHarness(dir.resolve("allocs"), raw, Sleeper.system());
    }

    @AfterEach
    void tearDown() throws Exception {
        h.close();
    }

    private static RestartPolicySpec policy(int attempts, List<Integer> noRestartCodes, List<Integer> restartCodes,
            List<String> noRestartSignals) {
        return new RestartPolicySpec(attempts, Duration.ofMinutes(10).toNanos(), DELAY.toNanos(), "fail", noRestartCodes,
                restartCodes, noRestartSignals, null);
    }

    private static List<TaskEvent> ofType(TaskState s, String type) {
        return s.events().stream().filter((e) -> e.type().equals(type)).toList();
    }

    @Test
    void listedCodesRestartUncountedWithTheExactDelayUntilACodeThatEndsTheTask() {
        // exits 75 twice (one attempt allowed: without the rule the second exit would fail it), then 3
        String script = "n=$(cat \"$NOMAD_TASK_DIR/runs\" 2>/dev/null || echo 0); n=$((n+1)); echo $n > \"$NOMAD_TASK_DIR/runs\"; "
                + "[ $n -le 2 ] && exit 75; exit 3";
        AllocRunner r = h.runner(alloc("rules1", "service", policy(1, List.of(3), List.of(75), null), null, sh("t", script, null, null, false)));
        r.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> r.taskStates().get("t").dead());
        TaskState s = r.taskStates().get("t");
        assertThat(types(s)).containsSubsequence("Started", "Terminated", "Restarting", "Started", "Terminated", "Restarting", "Started",
                "Terminated", "Not Restarting");
        assertThat(ofType(s, "Terminated")).extracting(TaskEvent::exitCode).containsExactly(75, 75, 3);
        assertThat(ofType(s, "Restarting")).allSatisfy((e) -> {
            assertThat(e.details()).containsEntry(TaskEvent.RESTART_RULE, "RestartExitCodes[75]")
                    .containsEntry("restart_reason", "Exit code 75 is listed in RestartExitCodes: restart, not counted");
            assertThat(e.startDelayNs()).isEqualTo(JITTERED.toNanos());
        });
        assertThat(h.sleeps).containsExactly(JITTERED, JITTERED);
        TaskEvent end = ofType(s, "Not Restarting").getFirst();
        assertThat(end.details()).containsEntry(TaskEvent.RESTART_RULE, "NoRestartExitCodes[3]");
        assertThat(end.failsTask()).isTrue();
        assertThat(s.failed()).isTrue();
        await().until(() -> r.record().clientStatus().equals(ClientStatus.FAILED));
    }

    @Test
    void aListedSignalEndsTheTaskAndAListedZeroEndsAServiceWithoutFailingIt() {
        AllocRunner killed = h.runner(alloc("rules2", "service", policy(2, null, null, List.of("TERM")), null,
                sh("t", "kill -TERM $$", null, null, false)));
        AllocRunner done = h.runner(alloc("rules3", "service", policy(2, List.of(0), null, null), null, sh("t", "exit 0", null, null, false)));
        killed.start();
        done.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> killed.taskStates().get("t").dead() && done.taskStates().get("t").dead());

        TaskState k = killed.taskStates().get("t");
        assertThat(types(k)).endsWith("Terminated", "Not Restarting").doesNotContain("Restarting");
        assertThat(ofType(k, "Terminated").getFirst().signal()).isEqualTo(15);
        assertThat(ofType(k, "Not Restarting").getFirst().details()).containsEntry(TaskEvent.RESTART_RULE, "NoRestartSignals[SIGTERM]");
        assertThat(k.failed()).isTrue();

        TaskState d = done.taskStates().get("t");
        assertThat(types(d)).endsWith("Terminated", "Not Restarting").doesNotContain("Restarting");
        TaskEvent end = ofType(d, "Not Restarting").getFirst();
        assertThat(end.details()).containsEntry(TaskEvent.RESTART_RULE, "NoRestartExitCodes[0]").doesNotContainKey("fails_task");
        assertThat(end.failsTask()).isFalse();
        assertThat(d.failed()).isFalse();
        await().until(() -> done.record().clientStatus().equals(ClientStatus.COMPLETE));
        assertThat(h.sleeps).isEmpty();
    }
}
