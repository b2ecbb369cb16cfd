package dev.berth.driver.exec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.config.NodeIdentity;
import dev.berth.driver.DriverException;
import dev.berth.driver.ExitResult;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskDevice;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.rawexec.RawExecDriver;
import dev.berth.driver.rawexec.TaskOutputs;
import dev.berth.host.cgroup.HostCgroups;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An exec task's bind mounts (host volumes) with the real kernel: made in the task's own mount namespace, read-only
 * where asked (a write fails in the task), invisible on the host. Needs root, as every exec test does.
 */
class ExecVolumeMountTest {

    private static final NodeIdentity NODE = new NodeIdentity(UUID.randomUUID().toString());

    @TempDir
    Path root;

    private ExecDriver driver;
    private TaskHandle handle;

    @BeforeEach
    void driver() {
        RawExecDriver processes = new RawExecDriver(true, Clock.systemUTC(), root.resolve("exits"), new ScheduledThreadPoolExecutor(1),
                Duration.ofMillis(50), TaskOutputs.APPEND_TO_FILES);
        driver = new ExecDriver(true, processes, HostCgroups.manager(NODE), 4096, 2000);
    }

    @AfterEach
    void cleanUp() throws DriverException {
        if (handle != null) {
            driver.destroy(handle, true);
        }
        driver.close();
    }

    @AfterAll
    static void removeParent() throws IOException {
        HostCgroups.removeParent(NODE);
    }

    @Test
    void theTaskReadsAndWritesAWritableVolumeAndCannotWriteAReadOnlyOne() throws Exception {
        Path shared = Files.createDirectories(root.resolve("volumes/shared"));
        Files.writeString(shared.resolve("hello.txt"), "from the host\n");
        Path config = Files.createDirectories(root.resolve("volumes/config"));
        Files.writeString(config.resolve("app.conf"), "port=1\n");
        String allocId = UUID.randomUUID().toString();
        Path taskDir = Files.createDirectories(root.resolve(allocId).resolve("web"));
        Path data = Files.createDirectories(taskDir.resolve("srv/data"));
        Path etc = Files.createDirectories(taskDir.resolve("etc/app"));
        String script = "cat srv/data/hello.txt; cat etc/app/app.conf; "
                + "echo written > srv/data/out.txt && echo rw-ok; "
                + "if echo x > etc/app/new.conf; then echo ro-written; else echo ro-refused; fi";
        TaskConfig task = new TaskConfig(allocId + "/web", allocId, "web", "job", "group", "default",
                Map.of("command", "/bin/sh", "args", List.of("-c", script)), Map.of("PATH", "/usr/bin:/bin"), root.resolve(allocId),
                taskDir, taskDir.resolve("out"), taskDir.resolve("err"), 0, 32, 0,
                List.of(new TaskDevice.Mount(shared.toString(), data.toString(), false),
                        new TaskDevice.Mount(config.toString(), etc.toString(), true)));

        handle = driver.start(task);
        ExitResult exit = driver.waitTask(handle).get(30, TimeUnit.SECONDS);

        assertThat(exit).isEqualTo(ExitResult.ofCode(0));
        assertThat(Files.readString(task.stdoutPath())).isEqualTo("from the host\nport=1\nrw-ok\nro-refused\n");
        assertThat(Files.readString(task.stderrPath())).contains("Read-only file system");
        assertThat(shared.resolve("out.txt")).hasContent("written");
        assertThat(config.resolve("new.conf")).doesNotExist();
        // the mounts lived in the task's namespace only: the host's mount points stayed empty
        try (var onHost = Files.list(data)) {
            assertThat(onHost).isEmpty();
        }
    }
}
