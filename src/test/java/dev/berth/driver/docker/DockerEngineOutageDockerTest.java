package dev.berth.driver.docker;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.driver.DriverException;
import dev.berth.driver.ExitResult;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskHandle;

import static dev.berth.driver.docker.DockerTestTasks.shell;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The engine goes away while a container runs on (a dockerd restart with {@code live-restore}): the driver talks to the
 * real engine through an {@link EngineProxy} that the test takes down, which cuts the wait and the followed log stream
 * as a restarting engine does, while the container keeps running. Once the engine answers again the task is still
 * waited on, and its logs continue with the lines written meanwhile: nothing lost, nothing twice.
 */
class DockerEngineOutageDockerTest {

    @TempDir
    Path root;

    private EngineProxy proxy;
    private DockerDriver driver;
    private TaskHandle handle;

    @BeforeEach
    void proxy() throws Exception {
        // unix socket paths must stay short (108 bytes)
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "bdo");
        proxy = new EngineProxy(dir.resolve("e.sock"), Path.of("/var/run/docker.sock"));
        proxy.up();
        driver = new DockerDriver(true, "never", new DockerEngineProperties(proxy.host(), Duration.ofSeconds(5), Duration.ofSeconds(1),
                Duration.ofSeconds(10)), DockerTestTasks.NODE_ID, Clock.systemUTC());
    }

    @AfterEach
    void cleanUp() throws Exception {
        proxy.up();
        if (handle != null) {
            try {
                driver.destroy(handle, true);
            } catch (DriverException e) {
                // destroyed by the test
            }
        }
        driver.close();
        Path sock = Path.of(proxy.host().substring("unix://".length()));
        proxy.close();
        Files.deleteIfExists(sock.getParent());
    }

    @Test
    void logsAndWaitContinueAfterTheEngineConnectionBrokeWithNothingLostOrDuplicated() throws Exception {
        // the counter goes to /alloc so the test sees progress while nothing is copied
        TaskConfig task = shell(root, "i=0; while :; do i=$((i+1)); echo out-$i; echo err-$i >&2; echo $i > /alloc/counter; "
                + "sleep 0.1; done", 0, 0);
        handle = driver.start(task);
        await().atMost(Duration.ofSeconds(10)).until(() -> lastNumber(task.stdoutPath(), "out-") >= 3);

        proxy.down();
        Path counter = task.allocDir().resolve("counter");
        int copied = lastNumber(task.stdoutPath(), "out-");
        await().atMost(Duration.ofSeconds(20)).until(() -> counterValue(counter) >= copied + 10);
        assertThat(lastNumber(task.stdoutPath(), "out-")).as("nothing copied while the engine is away").isLessThan(copied + 5);
        assertThat(driver.waitTask(handle)).as("a broken wait is not an exit").isNotDone();

        proxy.up();
        int target = counterValue(counter) + 5;
        await().atMost(Duration.ofSeconds(30)).until(() -> lastNumber(task.stdoutPath(), "out-") >= target
                && lastNumber(task.stderrPath(), "err-") >= target);
        assertThat(driver.waitTask(handle)).isNotDone();

        driver.stop(handle, Duration.ofSeconds(1), "SIGKILL");
        assertThat(driver.waitTask(handle).get(20, TimeUnit.SECONDS)).isEqualTo(new ExitResult(137, 0, false, null));
        assertConsecutive(Files.readAllLines(task.stdoutPath()), "out-");
        assertConsecutive(Files.readAllLines(task.stderrPath()), "err-");
    }

    private static int counterValue(Path counter) throws java.io.IOException {
        String text = Files.exists(counter) ? Files.readString(counter).trim() : "";
        return text.isEmpty() ? 0 : Integer.parseInt(text);
    }

    private static int lastNumber(Path log, String prefix) throws java.io.IOException {
        List<String> lines = Files.readAllLines(log);
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).startsWith(prefix)) {
                return Integer.parseInt(lines.get(i).substring(prefix.length()));
            }
        }
        return 0;
    }

    private static void assertConsecutive(List<String> lines, String prefix) {
        assertThat(lines).isNotEmpty();
        for (int i = 0; i < lines.size(); i++) {
            assertThat(lines.get(i)).as("line %d of %d", i + 1, lines.size()).isEqualTo(prefix + (i + 1));
        }
    }
}
