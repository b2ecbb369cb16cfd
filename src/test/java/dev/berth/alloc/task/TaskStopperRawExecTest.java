package dev.berth.alloc.task;

import dev.berth.config.Sleeper;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.driver.ExitResult;
import dev.berth.driver.ProcessSignals;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.rawexec.RawExecDriver;
import dev.berth.driver.rawexec.TaskOutputs;

import static org.assertj.core.api.Assertions.assertThat;

/** A stop the driver cannot deliver still ends the real process: the stopper falls back to a forced destroy. */
class TaskStopperRawExecTest {

    @TempDir
    Path dir;

    private final List<TaskHandle> started = new ArrayList<>();
    private RawExecDriver driver;

    @AfterEach
    void killLeftovers() throws Exception {
        for (TaskHandle handle : started) {
            ProcessSignals.signalGroup(Integer.parseInt(handle.driverState().get("pgid")), 9);
        }
        if (driver != null) {
            driver.close();
        }
    }

    @Test
    void whenEveryStopAttemptFailsTheTaskIsDestroyedByForce() throws Exception {
        driver = new RawExecDriver(true, Clock.systemUTC(), dir.resolve("exit"),
                new ScheduledThreadPoolExecutor(1, Thread.ofVirtual().factory()), Duration.ofMillis(50), TaskOutputs.APPEND_TO_FILES);
        TaskHandle handle = driver.start(task("sleeper", "/bin/sleep", "300"));
        started.add(handle);
        int pid = Integer.parseInt(handle.driverState().get("pid"));
        CompletableFuture<ExitResult> exit = driver.waitTask(handle);
        List<Duration> slept = new ArrayList<>();
        Sleeper recording = (d, cancel) -> slept.add(d);

        // "SIGNOPE" makes every driver.stop throw before any signal is sent (an alloc stored before KillSignal was
        // validated behaved like this and kept running after DELETE)
        TaskStopper.Stopped stopped = TaskStopper.stop(driver, handle, Duration.ofSeconds(5), "SIGNOPE", exit, recording,
                new CompletableFuture<>());

        assertThat(slept).hasSize(TaskStopper.ATTEMPTS - 1);
        assertThat(exit).isDone();
        assertThat(stopped.result().signal()).isEqualTo(9);
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }

    private TaskConfig task(String name, Object... commandAndArgs) throws Exception {
        Path taskDir = Files.createDirectories(dir.resolve(name));
        Map<String, Object> config = new HashMap<>();
        config.put("command", commandAndArgs[0]);
        config.put("args", List.of(commandAndArgs).subList(1, commandAndArgs.length));
        return new TaskConfig("alloc1/" + name, "alloc1", name, "job", "group", "default", config, Map.of("PATH", "/usr/bin:/bin"),
                dir, taskDir, dir.resolve(name + ".stdout.0"), dir.resolve(name + ".stderr.0"), 0, 0, 0, List.of());
    }
}
