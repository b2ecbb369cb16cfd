package dev.berth.driver.rawexec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.driver.DriverException;
import dev.berth.driver.DriverFingerprint;
import dev.berth.driver.ExitResult;
import dev.berth.driver.HealthState;
import dev.berth.host.ProcStat;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskConfigValidationException;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.TaskNotFoundException;
import dev.berth.driver.logs.Fifo;
import dev.berth.driver.logs.RotatingFileWriter;
import dev.berth.driver.logs.TaskLogPump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** Runs real processes. Every test kills what it started (see {@link #killLeftovers()}). */
class RawExecDriverTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Map<String, String> BASE_ENV = Map.of("PATH", "/usr/bin:/bin");

    @TempDir
    Path dir;

    private final List<RawExecDriver> drivers = new ArrayList<>();
    private final List<TaskHandle> started = new ArrayList<>();
    private RawExecDriver driver;

    @BeforeEach
    void setUp() {
        driver = newDriver(true);
    }

    private RawExecDriver newDriver(boolean enabled) {
        ScheduledThreadPoolExecutor poller = new ScheduledThreadPoolExecutor(1, Thread.ofVirtual().factory());
        RawExecDriver d = new RawExecDriver(enabled, Clock.systemUTC(), dir.resolve("exit"), poller, Duration.ofMillis(50),
                TaskOutputs.APPEND_TO_FILES);
        drivers.add(d);
        return d;
    }

    @AfterEach
    void killLeftovers() throws Exception {
        for (TaskHandle handle : started) {
            int pgid = Integer.parseInt(handle.driverState().get("pgid"));
            dev.berth.driver.ProcessSignals.signalGroup(pgid, 9);
        }
        drivers.forEach(RawExecDriver::close);
    }

    private TaskConfig task(String name, Map<String, String> env, Object... commandAndArgs) throws Exception {
        Path taskDir = Files.createDirectories(dir.resolve(name));
        Map<String, Object> config = new HashMap<>();
        config.put("command", commandAndArgs[0]);
        if (commandAndArgs.length > 1) {
            config.put("args", List.of(commandAndArgs).subList(1, commandAndArgs.length));
        }
        return new TaskConfig("alloc1/" + name, "alloc1", name, "job", "group", "default", config, env, dir, taskDir,
                dir.resolve("logs/" + name + ".stdout.0"), dir.resolve("logs/" + name + ".stderr.0"), 0, 0, 0, List.of());
    }

    private TaskHandle start(TaskConfig cfg) throws DriverException {
        TaskHandle handle = driver.start(cfg);
        started.add(handle);
        return handle;
    }

    private static ExitResult exitOf(CompletableFuture<ExitResult> future) {
        await().atMost(WAIT).until(future::isDone);
        return future.join();
    }

    private static boolean gone(long pid) {
        return ProcStat.read(pid).map(s -> !s.running()).orElse(true);
    }

    @Test
    void fingerprint() {
        assertThat(driver.name()).isEqualTo("raw_exec");
        assertThat(driver.fingerprintPeriod()).isEqualTo(Duration.ofSeconds(30));
        assertThat(driver.fingerprint()).isEqualTo(new DriverFingerprint(HealthState.HEALTHY, "Healthy", Map.of("driver.raw_exec", "true")));
        assertThat(newDriver(false).fingerprint()).isEqualTo(DriverFingerprint.disabled());
    }

    /** {@code berth.drivers.raw-exec.launcher=process-builder}: tasks start through ProcessBuilder and their exits are seen. */
    @Test
    void theProcessBuilderLauncherRunsTasksAndSeesTheirExit() throws Exception {
        assertThat(driver.usesPosixSpawn()).as("this machine has glibc >= 2.34 and Linux >= 5.3").isTrue();
        ScheduledThreadPoolExecutor poller = new ScheduledThreadPoolExecutor(1, Thread.ofVirtual().factory());
        driver = new RawExecDriver(true, Clock.systemUTC(), dir.resolve("exit"), poller, Duration.ofMillis(50),
                TaskOutputs.APPEND_TO_FILES, null, false);
        drivers.add(driver);
        assertThat(driver.usesPosixSpawn()).isFalse();
        TaskHandle handle = start(task("pb", BASE_ENV, "/bin/sh", "-c", "exit 3"));
        assertThat(exitOf(driver.waitTask(handle))).isEqualTo(ExitResult.ofCode(3));
    }

    @Test
    void handleCarriesPidGroupStartTicksAndExitFile() throws Exception {
        TaskHandle handle = start(task("web", BASE_ENV, "sleep", "1000"));
        Map<String, String> s = handle.driverState();
        assertThat(s).containsOnlyKeys("pid", "pgid", "start_ticks", "cgroup", "exit_file").containsEntry("cgroup", "");
        long pid = Long.parseLong(s.get("pid"));
        await().atMost(WAIT).untilAsserted(() -> {
            ProcStat stat = ProcStat.read(pid).orElseThrow();
            assertThat(stat.pgrp()).isEqualTo(Integer.parseInt(s.get("pgid"))).isEqualTo((int) pid);
            assertThat(stat.session()).isEqualTo((int) pid);
            assertThat(stat.startTicks()).isEqualTo(Long.parseLong(s.get("start_ticks")));
        });
        driver.stop(handle, WAIT, "SIGTERM");
        assertThat(exitOf(driver.waitTask(handle))).isEqualTo(new ExitResult(143, 15, false, null));
        assertThat(Files.readString(Path.of(s.get("exit_file")))).isEqualTo("143");
    }

    @Test
    void anExitedTaskCanBeStartedAgainUnderTheSameId() throws Exception {
        TaskConfig cfg = task("again", BASE_ENV, "/bin/sh", "-c", "echo run; exit 2");
        TaskHandle first = start(cfg);
        assertThat(exitOf(driver.waitTask(first))).isEqualTo(ExitResult.ofCode(2));
        TaskHandle second = start(cfg);
        assertThat(exitOf(driver.waitTask(second))).isEqualTo(ExitResult.ofCode(2));
        assertThat(Files.readString(cfg.stdoutPath())).isEqualTo("run\nrun\n");
        assertThat(Path.of(first.driverState().get("exit_file"))).doesNotExist();
        assertThat(Path.of(second.driverState().get("exit_file"))).exists();
    }

    @Test
    void exitCodeIsReported() throws Exception {
        TaskHandle handle = start(task("web", BASE_ENV, "/bin/sh", "-c", "exit 3"));
        assertThat(exitOf(driver.waitTask(handle))).isEqualTo(ExitResult.ofCode(3));
        assertThat(exitOf(driver.waitTask(start(task("ok", BASE_ENV, "true"))))).isEqualTo(ExitResult.ofCode(0));
    }

    @Test
    void deathBySignalIsReportedAsNomadDoes() throws Exception {
        TaskHandle handle = start(task("web", BASE_ENV, "/bin/sh", "-c", "kill -USR1 $$"));
        assertThat(exitOf(driver.waitTask(handle))).isEqualTo(new ExitResult(138, 10, false, null));
    }

    @Test
    void stopDefaultsToSigint() throws Exception {
        TaskHandle handle = start(task("web", BASE_ENV, "sleep", "1000"));
        driver.stop(handle, WAIT, null);
        assertThat(exitOf(driver.waitTask(handle))).isEqualTo(new ExitResult(130, 2, false, null));
    }

    @Test
    void taskIgnoringTheStopSignalIsKilledWithItsChildrenAtTheTimeout() throws Exception {
        TaskConfig cfg = task("stubborn", BASE_ENV, "/bin/sh", "-c", "trap '' TERM; sleep 1000 & echo $! > child.pid; wait");
        TaskHandle handle = start(cfg);
        Path childPidFile = cfg.taskDir().resolve("child.pid");
        await().atMost(WAIT).until(() -> Files.exists(childPidFile) && !Files.readString(childPidFile).isBlank());
        long grandchild = Long.parseLong(Files.readString(childPidFile).trim());
        assertThat(gone(grandchild)).isFalse();

        driver.stop(handle, Duration.ofMillis(300), "SIGTERM");

        assertThat(driver.waitTask(handle)).isCompletedWithValue(new ExitResult(137, 9, false, null));
        await().atMost(WAIT).until(() -> gone(grandchild));
    }

    @Test
    void leftoverChildrenAreKilledWhenTheTaskStopsGracefully() throws Exception {
        TaskConfig cfg = task("leaky", BASE_ENV, "/bin/sh", "-c", "sleep 1000 & echo $! > child.pid; wait");
        TaskHandle handle = start(cfg);
        Path childPidFile = cfg.taskDir().resolve("child.pid");
        await().atMost(WAIT).until(() -> Files.exists(childPidFile) && !Files.readString(childPidFile).isBlank());
        long grandchild = Long.parseLong(Files.readString(childPidFile).trim());

        driver.signal(handle, "SIGTERM"); // the main shell dies; its sleep lives on
        assertThat(exitOf(driver.waitTask(handle))).isEqualTo(new ExitResult(143, 15, false, null));
        assertThat(gone(grandchild)).isFalse();

        driver.stop(handle, Duration.ofSeconds(1), "SIGTERM");
        await().atMost(WAIT).until(() -> gone(grandchild));
    }

    @Test
    void environmentIsExactlyTheTasks() throws Exception {
        TaskConfig cfg = task("env", Map.of("A", "1", "B", "two words", "PATH", "/usr/bin:/bin"), "env");
        assertThat(exitOf(driver.waitTask(start(cfg)))).isEqualTo(ExitResult.ofCode(0));
        assertThat(Files.readAllLines(cfg.stdoutPath())).containsExactlyInAnyOrder("A=1", "B=two words", "PATH=/usr/bin:/bin");
    }

    @Test
    void stdoutAndStderrAreAppendedToTheFiles() throws Exception {
        TaskConfig cfg = task("out", BASE_ENV, "/bin/sh", "-c", "echo out; echo err >&2");
        Files.createDirectories(cfg.stdoutPath().getParent());
        Files.writeString(cfg.stdoutPath(), "old out\n");
        Files.writeString(cfg.stderrPath(), "old err\n");
        exitOf(driver.waitTask(start(cfg)));
        assertThat(Files.readString(cfg.stdoutPath())).isEqualTo("old out\nout\n");
        assertThat(Files.readString(cfg.stderrPath())).isEqualTo("old err\nerr\n");
    }

    private RawExecDriver fifoDriver(Path stdoutFifo, Path stderrFifo) {
        TaskOutputs fifos = new TaskOutputs() {
            @Override
            public Target stdout(TaskConfig task) {
                return new Target.Fifo(stdoutFifo);
            }

            @Override
            public Target stderr(TaskConfig task) {
                return new Target.Fifo(stderrFifo);
            }
        };
        RawExecDriver d = new RawExecDriver(true, Clock.systemUTC(), dir.resolve("exit"), new ScheduledThreadPoolExecutor(1),
                Duration.ofMillis(50), fifos);
        drivers.add(d);
        return d;
    }

    @Test
    void outputThroughFifosReachesTheRotatingLogPump() throws Exception {
        Path out = Fifo.create(dir.resolve("fifo/stdout.fifo"));
        Path err = Fifo.create(dir.resolve("fifo/stderr.fifo"));
        RotatingFileWriter outFiles = new RotatingFileWriter(dir.resolve("logs"), "pumped.stdout", 3, 1 << 20);
        RotatingFileWriter errFiles = new RotatingFileWriter(dir.resolve("logs"), "pumped.stderr", 3, 1 << 20);
        try (TaskLogPump outPump = TaskLogPump.start(out, outFiles, "test-out");
                TaskLogPump errPump = TaskLogPump.start(err, errFiles, "test-err")) {
            RawExecDriver d = fifoDriver(out, err);
            TaskHandle handle = d.start(task("pumped", BASE_ENV, "/bin/sh", "-c", "echo hello; echo oops >&2; exit 3"));
            started.add(handle);
            assertThat(exitOf(d.waitTask(handle))).isEqualTo(ExitResult.ofCode(3));
            // The shim held the FIFOs; once it exited every writer is gone and the pumps see end-of-file.
            assertThat(outPump.awaitEnd(10_000)).isTrue();
            assertThat(errPump.awaitEnd(10_000)).isTrue();
        }
        assertThat(Files.readString(dir.resolve("logs/pumped.stdout.0"))).isEqualTo("hello\n");
        assertThat(Files.readString(dir.resolve("logs/pumped.stderr.0"))).isEqualTo("oops\n");
    }

    @Test
    void aFifoWithoutReaderNeverBreaksTheTask() throws Exception {
        Path out = Fifo.create(dir.resolve("fifo/stdout.fifo"));
        Path err = Fifo.create(dir.resolve("fifo/stderr.fifo"));
        RawExecDriver d = fifoDriver(out, err);
        // Nobody reads: with a write-only FIFO the task would block in open() or die of SIGPIPE (exit 141).
        TaskHandle handle = d.start(task("unread", BASE_ENV, "/bin/sh", "-c", "echo into-the-buffer; exit 3"));
        started.add(handle);
        assertThat(exitOf(d.waitTask(handle))).isEqualTo(ExitResult.ofCode(3));
    }

    @Test
    void signalGoesToTheMainProcessAndUnknownNamesAreRejected() throws Exception {
        TaskConfig cfg = task("sig", BASE_ENV, "/bin/sh", "-c", "trap 'echo got-usr1; exit 5' USR1; echo ready; while :; do sleep 0.05; done");
        TaskHandle handle = start(cfg);
        await().atMost(WAIT).until(() -> Files.exists(cfg.stdoutPath()) && Files.readString(cfg.stdoutPath()).contains("ready"));

        assertThatExceptionOfType(DriverException.class).isThrownBy(() -> driver.signal(handle, "SIGBOGUS"))
                .withMessage("unknown signal \"SIGBOGUS\"");
        assertThatExceptionOfType(DriverException.class).isThrownBy(() -> driver.stop(handle, WAIT, "NOPE"));
        assertThat(driver.waitTask(handle)).isNotDone();

        driver.signal(handle, "usr1");
        assertThat(exitOf(driver.waitTask(handle))).isEqualTo(ExitResult.ofCode(5));
        assertThat(Files.readString(cfg.stdoutPath())).isEqualTo("ready\ngot-usr1\n");
    }

    @Test
    void recoveredRunningTaskReportsItsRealExitCode() throws Exception {
        TaskConfig cfg = task("rec", BASE_ENV, "/bin/sh", "-c", "while [ ! -f go ]; do sleep 0.05; done; exit 7");
        TaskHandle handle = start(cfg);

        RawExecDriver fresh = newDriver(true); // what the agent has after a restart: the handle, no Process
        TaskHandle recovered = fresh.recover(handle);
        assertThat(recovered).isEqualTo(handle);
        CompletableFuture<ExitResult> exit = fresh.waitTask(recovered);
        assertThat(exit).isNotDone();

        Files.writeString(cfg.taskDir().resolve("go"), "");
        assertThat(exitOf(exit)).isEqualTo(ExitResult.ofCode(7));
    }

    /**
     * A user saw "cannot create data/drivers/raw_exec/…exit.tmp: Directory nonexistent" in a task's stderr and a restored
     * task reported "Exit Code: 0 … not recorded": with the default relative data dir ({@code ./data}) the exit file path
     * was resolved against the task's working directory.
     */
    @Test
    void aRelativeExitDirStillRecordsTheExitCodeOfARecoveredTask() throws Exception {
        Path relativeExitDir = Path.of("").toAbsolutePath().relativize(dir.resolve("exit"));
        assertThat(relativeExitDir.isAbsolute()).isFalse();
        ScheduledThreadPoolExecutor poller = new ScheduledThreadPoolExecutor(1, Thread.ofVirtual().factory());
        RawExecDriver relative = new RawExecDriver(true, Clock.systemUTC(), relativeExitDir, poller, Duration.ofMillis(50),
                TaskOutputs.APPEND_TO_FILES);
        drivers.add(relative);
        TaskConfig cfg = task("relexit", BASE_ENV, "/bin/sh", "-c", "while [ ! -f go ]; do sleep 0.05; done; exit 7");
        TaskHandle handle = relative.start(cfg);
        started.add(handle);

        RawExecDriver fresh = newDriver(true);
        fresh.recover(handle);
        CompletableFuture<ExitResult> exit = fresh.waitTask(handle);
        Files.writeString(cfg.taskDir().resolve("go"), "");
        assertThat(exitOf(exit)).isEqualTo(ExitResult.ofCode(7));
    }

    @Test
    void recoveredTaskCanBeStoppedAndKilled() throws Exception {
        TaskConfig cfg = task("rec", BASE_ENV, "/bin/sh", "-c", "trap '' INT; echo ready; while :; do sleep 0.05; done");
        TaskHandle handle = start(cfg);
        // Signals sent before the shim installed its traps would kill it without an exit file: wait until the task runs.
        await().atMost(WAIT).until(() -> Files.exists(cfg.stdoutPath()) && Files.readString(cfg.stdoutPath()).contains("ready"));
        RawExecDriver fresh = newDriver(true);
        fresh.recover(handle);
        fresh.stop(handle, Duration.ofMillis(200), null);
        assertThat(exitOf(fresh.waitTask(handle))).isEqualTo(new ExitResult(137, 9, false, null));
    }

    @Test
    void recoverAfterExitUsesTheExitFileOrReportsNotFound() throws Exception {
        TaskHandle handle = start(task("done", BASE_ENV, "/bin/sh", "-c", "exit 4"));
        exitOf(driver.waitTask(handle));

        RawExecDriver fresh = newDriver(true);
        fresh.recover(handle);
        assertThat(fresh.waitTask(handle)).isCompletedWithValue(ExitResult.ofCode(4));

        fresh.destroy(handle, false); // deletes the exit file
        assertThat(Path.of(handle.driverState().get("exit_file"))).doesNotExist();
        assertThatExceptionOfType(TaskNotFoundException.class).isThrownBy(() -> newDriver(true).recover(handle));
    }

    @Test
    void recoverWithARecycledPidIsNotFound() throws Exception {
        TaskHandle handle = start(task("web", BASE_ENV, "sleep", "1000"));
        Map<String, String> state = new HashMap<>(handle.driverState());
        state.put("start_ticks", Long.toString(Long.parseLong(state.get("start_ticks")) + 1));
        state.remove("exit_file");
        TaskHandle recycled = new TaskHandle(handle.driver(), handle.taskId(), handle.startedAt(), state);

        assertThatExceptionOfType(TaskNotFoundException.class).isThrownBy(() -> newDriver(true).recover(recycled));
    }

    @Test
    void destroyRefusesARunningTaskUnlessForced() throws Exception {
        TaskHandle handle = start(task("web", BASE_ENV, "sleep", "1000"));
        assertThatExceptionOfType(DriverException.class).isThrownBy(() -> driver.destroy(handle, false))
                .withMessage("cannot destroy running task");
        driver.destroy(handle, true);
        assertThat(gone(Long.parseLong(handle.driverState().get("pid")))).isTrue();
        assertThatExceptionOfType(TaskNotFoundException.class).isThrownBy(() -> driver.stop(handle, WAIT, null));
    }

    @Test
    void programIsLookedUpInTheTaskLocalDirFirst() throws Exception {
        TaskConfig cfg = task("lookup", BASE_ENV, "hello.sh");
        Path script = Files.createDirectories(cfg.taskDir().resolve("local")).resolve("hello.sh");
        Files.writeString(script, "#!/bin/sh\necho from-local \"$PWD\"\n");
        script.toFile().setExecutable(true);
        assertThat(exitOf(driver.waitTask(start(cfg)))).isEqualTo(ExitResult.ofCode(0));
        assertThat(Files.readString(cfg.stdoutPath())).isEqualTo("from-local " + cfg.taskDir() + "\n");

        assertThatExceptionOfType(DriverException.class).isThrownBy(() -> driver.start(task("missing", BASE_ENV, "no-such-binary")))
                .withMessageStartingWith("file no-such-binary not found");
    }

    @Test
    void configIsValidatedStrictly() {
        assertThatExceptionOfType(TaskConfigValidationException.class).isThrownBy(() -> driver.validate(Map.of("args", List.of("x"))))
                .withMessage("Missing required argument; The argument \"command\" is required, but no definition was found.");
        assertThatExceptionOfType(TaskConfigValidationException.class)
                .isThrownBy(() -> driver.validate(Map.of("command", "x", "comand", "y")))
                .withMessage("Extraneous JSON object property; No argument or block type is named \"comand\".");
        assertThatExceptionOfType(TaskConfigValidationException.class)
                .isThrownBy(() -> driver.validate(Map.of("command", "x", "args", "not-a-list")))
                .withMessageContaining("\"args\"");
        assertThatExceptionOfType(DriverException.class)
                .isThrownBy(() -> driver.start(task("bad", BASE_ENV, "x")).driverState())
                .isNotNull(); // "x" is not found: a start error, not a hang
    }
}
