package dev.berth.alloc.runner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.LifecycleSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.config.Sleeper;
import dev.berth.alloc.task.TaskState;
import dev.berth.driver.rawexec.RawExecDriver;

import static dev.berth.alloc.runner.RawExecRunnerTest.alloc;
import static dev.berth.alloc.runner.RawExecRunnerTest.sh;
import static dev.berth.alloc.runner.RunnerHarness.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Task-set updates and alloc-wide restarts with real processes through raw_exec. */
class RawExecLifecycleTest {

    @TempDir
    Path dir;
    RunnerHarness h;

    @BeforeEach
    void setUp() {
        RawExecDriver raw = RunnerHarness.rawExec(dir, "test-raw-");
        h = new RunnerHarness(dir.resolve("allocs"), raw, Sleeper.system());
    }

    @AfterEach
    void tearDown() throws Exception {
        h.close();
    }

    private static boolean alive(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return !stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3).equals("Z");
        } catch (Exception e) {
            return false;
        }
    }

    private static long pid(AllocRunner r, String task, String file) throws Exception {
        Path p = r.dir().taskDir(task).resolve("local/" + file);
        await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(p) && Files.readString(p).endsWith("\n"));
        List<String> lines = Files.readAllLines(p);
        return Long.parseLong(lines.getLast().trim());
    }

    private static final String SERVE = "echo $$ >> \"$NOMAD_TASK_DIR/pids\"; exec sleep 1000";

    @Test
    void aRemovedTaskIsKilledWithItsProcessAndAnAddedOneStarts() throws Exception {
        AllocationSpec spec = alloc("rx1", "service", null, null, sh("keep", SERVE, null, null, false),
                sh("drop", "trap 'sleep 0.4; exit 0' TERM; echo $$ >> \"$NOMAD_TASK_DIR/pids\"; while true; do sleep 0.1; done",
                        Duration.ofSeconds(3).toNanos(), "SIGTERM", false));
        AllocRunner r = h.runner(spec);
        r.start();
        long keep = pid(r, "keep", "pids");
        long drop = pid(r, "drop", "pids");

        r.update(TaskSetUpdateTest.withTasks(r.record().spec(), 2, sh("keep", SERVE, null, null, false), sh("new", SERVE, null, null, false)));

        await().atMost(Duration.ofSeconds(15)).until(() -> r.taskStates().get("drop").dead());
        await().atMost(Duration.ofSeconds(5)).until(() -> !alive(drop));
        TaskState dropped = r.taskStates().get("drop");
        assertThat(types(dropped)).endsWith("Killing", "Terminated", "Killed");
        // it exited on its own within the kill timeout (SIGTERM trap), not by SIGKILL
        assertThat(dropped.events().get(dropped.events().size() - 2).exitCode()).isZero();
        assertThat(dropped.events().getLast().detail("kill_reason")).isEqualTo("update missing task");
        long added = pid(r, "new", "pids");
        assertThat(alive(added)).isTrue();
        assertThat(alive(keep)).isTrue();
        assertThat(r.taskStates().get("keep").running()).isTrue();
        assertThat(h.store.taskStates("rx1").get("drop").dead()).isTrue();
    }

    @Test
    void restartAllReturnsOnceTheOldProcessesAreGoneAndRerunsThePrestartTask() throws Exception {
        TaskSpec init = sh("init", "echo run >> \"$NOMAD_ALLOC_DIR/data/init-runs\"", null, null, false);
        init = new TaskSpec(init.name(), init.driver(), init.config(), init.env(), init.resources(), init.restartPolicy(),
                init.killTimeout(), init.killSignal(), init.leader(), new LifecycleSpec("prestart", false), init.meta(), init.logConfig());
        AllocRunner r = h.runner(alloc("rx2", "service", null, null, init, sh("main", SERVE, null, "SIGTERM", false)));
        r.start();
        long first = pid(r, "main", "pids");
        Path runs = r.dir().sharedDir().resolve("data/init-runs");
        assertThat(Files.readAllLines(runs)).hasSize(1);

        r.restartAll(RestartAllTest.REASON);

        assertThat(alive(first)).isFalse();
        await().atMost(Duration.ofSeconds(20)).until(() -> Files.readAllLines(r.dir().taskDir("main").resolve("local/pids")).size() == 2);
        long second = pid(r, "main", "pids");
        assertThat(second).isNotEqualTo(first);
        assertThat(alive(second)).isTrue();
        assertThat(Files.readAllLines(runs)).hasSize(2);
        assertThat(r.taskStates().get("init").dead()).isTrue();
        assertThat(r.record().clientStatus()).isEqualTo(ClientStatus.RUNNING);
    }
}
