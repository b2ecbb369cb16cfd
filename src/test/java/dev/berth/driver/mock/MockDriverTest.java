package dev.berth.driver.mock;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.driver.DriverException;
import dev.berth.driver.DriverFingerprint;
import dev.berth.driver.ExitResult;
import dev.berth.driver.HealthState;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskConfigValidationException;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.TaskNotFoundException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

class MockDriverTest {

    private static final Instant NOW = Instant.parse("2026-11-22T00:00:00Z");

    @TempDir
    Path dir;

    private final List<Duration> sleeps = new CopyOnWriteArrayList<>();
    private ScheduledThreadPoolExecutor scheduler;
    private MockDriver driver;

    @BeforeEach
    void setUp() {
        scheduler = new ScheduledThreadPoolExecutor(1, Thread.ofVirtual().factory());
        scheduler.setRemoveOnCancelPolicy(true);
        driver = new MockDriver(true, Clock.fixed(NOW, ZoneOffset.UTC), scheduler, (d, cancel) -> sleeps.add(d));
    }

    @AfterEach
    void tearDown() {
        driver.close();
    }

    private TaskConfig task(String name, Map<String, Object> config) {
        return new TaskConfig("alloc1/" + name, "alloc1", name, "job", "group", "default", config, Map.of(),
                dir, dir.resolve(name), dir.resolve(name + ".stdout.0"), dir.resolve(name + ".stderr.0"), 0, 0, 0, List.of());
    }

    private static ExitResult exitOf(CompletableFuture<ExitResult> future) {
        await().atMost(Duration.ofSeconds(5)).until(future::isDone);
        return future.join();
    }

    @Test
    void fingerprintIsHealthyWhenEnabledAndScriptable() {
        assertThat(driver.name()).isEqualTo("mock_driver");
        assertThat(driver.fingerprintPeriod()).isEqualTo(Duration.ofMillis(500));
        assertThat(driver.fingerprint()).isEqualTo(new DriverFingerprint(HealthState.HEALTHY, "Healthy", Map.of("driver.mock_driver", "true")));

        DriverFingerprint sick = new DriverFingerprint(HealthState.UNHEALTHY, "scripted failure", Map.of());
        driver.scriptHealth(sick);
        assertThat(driver.fingerprint()).isEqualTo(sick);
        driver.scriptHealth(null);
        assertThat(driver.fingerprint().health()).isEqualTo(HealthState.HEALTHY);
    }

    @Test
    void fingerprintIsUndetectedWhenDisabled() {
        MockDriver off = new MockDriver(false, Clock.systemUTC(), new ScheduledThreadPoolExecutor(1), (d, cancel) -> sleeps.add(d));
        try {
            assertThat(off.fingerprint()).isEqualTo(new DriverFingerprint(HealthState.UNDETECTED, "disabled", Map.of()));
            // a disabled driver's fingerprint never changes: an idle agent does not wake for it twice a second
            assertThat(off.fingerprintPeriod()).isEqualTo(java.time.Duration.ofSeconds(30));
            assertThat(driver.fingerprintPeriod()).isEqualTo(java.time.Duration.ofMillis(500));
        } finally {
            off.close();
        }
    }

    @Test
    void emptyRunForExitsAtOnceWithTheScriptedExit() throws Exception {
        TaskHandle handle = driver.start(task("web", Map.of("exit_code", 3, "exit_signal", 9, "exit_err_msg", "boom")));
        assertThat(handle.driver()).isEqualTo("mock_driver");
        assertThat(handle.taskId()).isEqualTo("alloc1/web");
        assertThat(handle.startedAt()).isEqualTo(NOW);
        assertThat(exitOf(driver.waitTask(handle))).isEqualTo(new ExitResult(3, 9, false, "boom"));
    }

    @Test
    void runForKeepsTheTaskRunningUntilItElapses() throws Exception {
        TaskHandle longRunning = driver.start(task("long", Map.of("run_for", "1m")));
        TaskHandle shortRunning = driver.start(task("short", Map.of("run_for", "150ms", "exit_code", "0")));

        assertThat(exitOf(driver.waitTask(shortRunning))).isEqualTo(ExitResult.ofCode(0));
        assertThat(driver.waitTask(longRunning)).isNotDone();
    }

    @Test
    void waitTaskFuturesAreIndependentCopies() throws Exception {
        TaskHandle handle = driver.start(task("web", Map.of("run_for", "1m")));
        driver.waitTask(handle).cancel(true);
        driver.waitTask(handle).complete(ExitResult.ofCode(42));
        driver.stop(handle, Duration.ofSeconds(1), null);
        assertThat(exitOf(driver.waitTask(handle))).isEqualTo(ExitResult.ofCode(0));
    }

    @Test
    void stopEndsTheTaskWithItsConfiguredExitIgnoringTheSignal() throws Exception {
        TaskHandle handle = driver.start(task("web", Map.of("run_for", "1m", "exit_code", 7)));
        driver.stop(handle, Duration.ofSeconds(5), "SIGTERM");
        assertThat(exitOf(driver.waitTask(handle))).isEqualTo(ExitResult.ofCode(7));
    }

    @Test
    void killAfterMakesStopWaitBeforeTheTaskEnds() throws Exception {
        TaskHandle handle = driver.start(task("web", Map.of("run_for", "1m", "kill_after", "1m")));
        Thread stopper = Thread.ofVirtual().start(() -> {
            try {
                driver.stop(handle, Duration.ofMillis(1), "SIGKILL");
            } catch (DriverException ex) {
                throw new IllegalStateException(ex);
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> stopper.getState() == Thread.State.TIMED_WAITING);
        assertThat(driver.waitTask(handle)).isNotDone();

        driver.destroy(handle, true); // ends the task; the waiting stop returns
        await().atMost(Duration.ofSeconds(5)).until(() -> !stopper.isAlive());
    }

    @Test
    void shortKillAfterElapsesThenTheTaskEnds() throws Exception {
        TaskHandle handle = driver.start(task("web", Map.of("run_for", "1m", "kill_after", "50ms", "exit_code", 1)));
        driver.stop(handle, Duration.ZERO, null);
        assertThat(driver.waitTask(handle)).isCompletedWithValue(ExitResult.ofCode(1));
    }

    @Test
    void startErrorIsRecoverableOnlyWhenScripted() {
        assertThatExceptionOfType(DriverException.class)
                .isThrownBy(() -> driver.start(task("a", Map.of("start_error", "no luck", "start_error_recoverable", true))))
                .withMessage("no luck").satisfies(ex -> assertThat(ex.recoverable()).isTrue());
        assertThatExceptionOfType(DriverException.class)
                .isThrownBy(() -> driver.start(task("b", Map.of("start_error", "fatal"))))
                .withMessage("fatal").satisfies(ex -> assertThat(ex.recoverable()).isFalse());
        assertThatExceptionOfType(TaskNotFoundException.class)
                .isThrownBy(() -> driver.recover(new TaskHandle("mock_driver", "alloc1/a", NOW, Map.of())));
    }

    @Test
    void startBlockForBlocksStartThroughTheSleeper() throws Exception {
        driver.start(task("web", Map.of("start_block_for", "1m30s", "run_for", "1m")));
        assertThat(sleeps).containsExactly(Duration.ofSeconds(90));
    }

    @Test
    void outputIsWrittenOnceAndThenRepeated() throws Exception {
        TaskConfig cfg = task("web", Map.of("run_for", "1m",
                "stdout_string", "out\n", "stdout_repeat", 3, "stdout_repeat_duration", "10ms",
                "stderr_string", "err\n", "stderr_repeat", 1, "stderr_repeat_duration", "20ms"));
        Files.writeString(cfg.stdoutPath(), "before\n"); // appended to, never truncated
        driver.start(cfg);

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(Files.readString(cfg.stdoutPath())).isEqualTo("before\nout\nout\nout\nout\n");
            assertThat(Files.readString(cfg.stderrPath())).isEqualTo("err\nerr\n");
        });
    }

    @Test
    void outputStopsWhenTheTaskEnds() throws Exception {
        TaskConfig cfg = task("web", Map.of("run_for", "1m", "stdout_string", "x", "stdout_repeat", 1000,
                "stdout_repeat_duration", "1m"));
        TaskHandle handle = driver.start(cfg);
        driver.stop(handle, Duration.ZERO, null);
        assertThat(scheduler.getQueue()).isEmpty(); // every pending repetition was cancelled
        assertThat(Files.readString(cfg.stdoutPath())).isEqualTo("x");
    }

    @Test
    void signalsAreCheckedRecordedOrFailAsScripted() throws Exception {
        TaskHandle ok = driver.start(task("ok", Map.of("run_for", "1m")));
        driver.signal(ok, "SIGUSR1");
        driver.signal(ok, "hup");
        assertThat(driver.receivedSignals("alloc1/ok")).containsExactly("SIGUSR1", "SIGHUP");
        assertThatExceptionOfType(DriverException.class).isThrownBy(() -> driver.signal(ok, "SIGBOGUS"))
                .withMessage("unknown signal \"SIGBOGUS\"");

        TaskHandle failing = driver.start(task("failing", Map.of("run_for", "1m", "signal_error", "cannot signal")));
        assertThatExceptionOfType(DriverException.class).isThrownBy(() -> driver.signal(failing, "SIGUSR1"))
                .withMessage("cannot signal");
    }

    @Test
    void destroyRefusesARunningTaskUnlessForced() throws Exception {
        TaskHandle handle = driver.start(task("web", Map.of("run_for", "1m", "exit_code", 2)));
        assertThatExceptionOfType(DriverException.class).isThrownBy(() -> driver.destroy(handle, false))
                .withMessage("cannot destroy running task");
        assertThat(driver.recover(handle)).isEqualTo(handle);

        driver.destroy(handle, true);
        assertThatExceptionOfType(TaskNotFoundException.class).isThrownBy(() -> driver.recover(handle));
        assertThatExceptionOfType(TaskNotFoundException.class).isThrownBy(() -> driver.stop(handle, Duration.ZERO, null));
        assertThat(driver.waitTask(handle)).isCompletedExceptionally();
    }

    @Test
    void recoverOnlyFindsTasksInMemory() throws Exception {
        TaskHandle handle = driver.start(task("web", Map.of("run_for", "1m")));
        assertThat(driver.recover(handle)).isEqualTo(handle);

        MockDriver fresh = new MockDriver(true, Clock.systemUTC(), new ScheduledThreadPoolExecutor(1), (d, cancel) -> sleeps.add(d));
        try {
            assertThatExceptionOfType(TaskNotFoundException.class).isThrownBy(() -> fresh.recover(handle));
        } finally {
            fresh.close();
        }
    }

    @Test
    void portMapIsParsedIntoTheHandle() throws Exception {
        TaskHandle handle = driver.start(task("web", Map.of("run_for", "1m", "driver_port_map", "http:8080,admin:9000")));
        assertThat(handle.driverState()).containsEntry("port.http", "8080").containsEntry("port.admin", "9000");
        assertThatExceptionOfType(TaskConfigValidationException.class)
                .isThrownBy(() -> driver.validate(Map.of("driver_port_map", "http")))
                .withMessage("malformed port map: \"http\"");
    }

    @Test
    void unknownKeysAndWrongTypesFailValidation() {
        assertThatExceptionOfType(TaskConfigValidationException.class)
                .isThrownBy(() -> driver.validate(Map.of("run_for", "1s", "bogus", 1)))
                .withMessage("Extraneous JSON object property; No argument or block type is named \"bogus\".")
                .satisfies(ex -> assertThat(ex.field()).isEqualTo("bogus"));
        assertThatExceptionOfType(TaskConfigValidationException.class)
                .isThrownBy(() -> driver.validate(Map.of("exit_code", "three")))
                .withMessageContaining("\"exit_code\"").withMessageContaining("a number is required");
        assertThatExceptionOfType(TaskConfigValidationException.class)
                .isThrownBy(() -> driver.validate(Map.of("run_for", "10 parsecs")))
                .withMessageContaining("\"run_for\"");
        assertThatExceptionOfType(TaskConfigValidationException.class)
                .isThrownBy(() -> driver.validate(Map.of("start_error_recoverable", "yes")))
                .withMessageContaining("\"start_error_recoverable\"").withMessageContaining("a bool is required");
        assertThatExceptionOfType(DriverException.class)
                .isThrownBy(() -> driver.start(task("x", Map.of("bogus", true))))
                .satisfies(ex -> assertThat(ex.recoverable()).isFalse());
    }

    @Test
    void startingARunningTaskAgainIsAnErrorButAnExitedOneRestarts() throws Exception {
        TaskHandle first = driver.start(task("web", Map.of("run_for", "1m")));
        assertThatExceptionOfType(DriverException.class).isThrownBy(() -> driver.start(task("web", Map.of())));
        driver.stop(first, Duration.ZERO, null);
        TaskHandle second = driver.start(task("web", Map.of("exit_code", 4)));
        assertThat(exitOf(driver.waitTask(second))).isEqualTo(ExitResult.ofCode(4));
    }
}
