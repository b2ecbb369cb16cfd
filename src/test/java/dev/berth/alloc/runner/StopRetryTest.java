package dev.berth.alloc.runner;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.task.TaskState;
import dev.berth.driver.DriverException;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.mock.MockDriver;

import static dev.berth.alloc.runner.RunnerHarness.alloc;
import static dev.berth.alloc.runner.RunnerHarness.task;
import static dev.berth.alloc.runner.RunnerHarness.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A failing driver stop is retried with backoff min(5s·4^i, 2m), exactly as the injected sleeper records it. */
class StopRetryTest {

    @TempDir
    Path dir;

    /** The real mock_driver whose first {@code failures} stops fail (standing in for a flaky driver). */
    static final class FlakyStopDriver extends MockDriver {
        final AtomicInteger stops = new AtomicInteger();
        final int failures;

        FlakyStopDriver(int failures) {
            super(true, Clock.systemUTC(), new ScheduledThreadPoolExecutor(1, Thread.ofVirtual().factory()),
                    dev.berth.config.Sleeper.system());
            this.failures = failures;
        }

        @Override
        public void stop(TaskHandle handle, Duration timeout, String signal) throws DriverException {
            if (stops.incrementAndGet() <= failures) {
                throw new DriverException("executor unreachable", true);
            }
            super.stop(handle, timeout, signal);
        }
    }

    @Test
    void stopIsRetriedWithNomadsBackoff() throws Exception {
        FlakyStopDriver driver = new FlakyStopDriver(3);
        try (RunnerHarness h = new RunnerHarness(dir, driver, null)) {
            AllocRunner r = h.runner(alloc("sr1", "service", null, task("t", Map.of("run_for", "1h"))));
            r.start();
            await().until(() -> r.taskStates().get("t").running());
            r.killTasks("test");
            TaskState s = r.taskStates().get("t");
            assertThat(types(s)).endsWith("Killing", "Terminated", "Killed");
            assertThat(driver.stops).hasValue(4);
            assertThat(h.sleeps).containsExactly(Duration.ofSeconds(5), Duration.ofSeconds(20), Duration.ofSeconds(80));
        } finally {
            driver.close();
        }
    }

    @Test
    void backoffIsCappedAtTwoMinutes() {
        assertThat(dev.berth.alloc.task.TaskStopperBackoff.of(0)).isEqualTo(Duration.ofSeconds(5));
        assertThat(dev.berth.alloc.task.TaskStopperBackoff.of(3)).isEqualTo(Duration.ofMinutes(2));
        assertThat(dev.berth.alloc.task.TaskStopperBackoff.of(4)).isEqualTo(Duration.ofMinutes(2));
    }
}
