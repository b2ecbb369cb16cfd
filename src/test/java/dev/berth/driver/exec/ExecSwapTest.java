package dev.berth.driver.exec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.config.NodeIdentity;
import dev.berth.driver.DriverException;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskConfigValidationException;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.rawexec.RawExecDriver;
import dev.berth.driver.rawexec.TaskOutputs;
import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.host.cgroup.HostCgroups;
import dev.berth.host.cgroup.SwapBudget;
import dev.berth.host.cgroup.TaskCgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Swap budgets of exec tasks in the kernel's files (root, this host's real cgroups; the unified hierarchy in the v2 VM):
 * none by default, LimitedSwap's share or the task's {@code swap_mb} where the node allows swap. v1 needs the kernel's
 * swap accounting ({@code memory.memsw.*}) to hold a task to a budget; without it nothing is asserted there.
 */
class ExecSwapTest {

    private static final NodeIdentity NODE = new NodeIdentity(UUID.randomUUID().toString());
    /** 16 GiB of memory and 4 GiB of swap: a task gets a quarter of its memory as swap. */
    private static final SwapBudget LIMITED = new SwapBudget(true, 16L << 30, 4L << 30);

    @TempDir
    Path root;

    private final List<ExecDriver> drivers = new ArrayList<>();
    private final List<Map.Entry<ExecDriver, TaskHandle>> started = new ArrayList<>();

    private ExecDriver driver(SwapBudget swap) throws IOException {
        RawExecDriver processes = new RawExecDriver(true, Clock.systemUTC(), root.resolve("exits"), new ScheduledThreadPoolExecutor(1),
                Duration.ofMillis(50), TaskOutputs.APPEND_TO_FILES);
        ExecDriver driver = new ExecDriver(true, processes, HostCgroups.manager(NODE), 4096, 2000, swap);
        drivers.add(driver);
        return driver;
    }

    @AfterEach
    void cleanUp() {
        for (Map.Entry<ExecDriver, TaskHandle> e : started) {
            try {
                e.getKey().destroy(e.getValue(), true);
            } catch (DriverException ignored) {
                // already gone
            }
        }
        drivers.forEach(ExecDriver::close);
    }

    @AfterAll
    static void removeParent() throws IOException {
        HostCgroups.removeParent(NODE);
    }

    private TaskConfig task(int memoryMb, Map<String, Object> extra) throws IOException {
        String allocId = UUID.randomUUID().toString();
        Path taskDir = Files.createDirectories(root.resolve(allocId).resolve("web"));
        Map<String, Object> config = new HashMap<>(Map.of("command", "/bin/sh", "args", List.of("-c", "echo started; exec sleep 600")));
        config.putAll(extra);
        return new TaskConfig(allocId + "/web", allocId, "web", "job", "group", "default", config, Map.of("PATH", "/usr/bin:/bin"),
                root.resolve(allocId), taskDir, taskDir.resolve("out"), taskDir.resolve("err"), 0, memoryMb, 0, null);
    }

    /** The swap the kernel lets the task use beyond its memory, or -1 where v1 accounts no swap. */
    private long swapAllowed(ExecDriver driver, TaskConfig task) throws Exception {
        TaskHandle handle = driver.start(task);
        started.add(Map.entry(driver, handle));
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(task.stdoutPath()).contains("started"));
        TaskCgroup cgroup = driver.cgroupOf(handle).orElseThrow();
        Path memory = cgroup.dir("memory");
        if (cgroup.version() == CgroupVersion.V2) {
            return Long.parseLong(Files.readString(memory.resolve("memory.swap.max")).strip());
        }
        if (!Files.exists(memory.resolve("memory.memsw.limit_in_bytes"))) {
            return -1;
        }
        return Long.parseLong(Files.readString(memory.resolve("memory.memsw.limit_in_bytes")).strip())
                - Long.parseLong(Files.readString(memory.resolve("memory.limit_in_bytes")).strip());
    }

    @Test
    void byDefaultATaskGetsNoSwapAndMayNotAskForAny() throws Exception {
        ExecDriver off = driver(SwapBudget.OFF);
        assertThat(swapAllowed(off, task(64, Map.of()))).isIn(0L, -1L);
        assertThatThrownBy(() -> off.validate(Map.of("command", "/bin/true", "swap_mb", 8)))
                .isInstanceOf(TaskConfigValidationException.class).hasMessageContaining("swap is off on this node");
        off.validate(Map.of("command", "/bin/true", "swap_mb", 0));
    }

    @Test
    void whereSwapIsAllowedATaskGetsItsShareOrItsOwnBudget() throws Exception {
        ExecDriver limited = driver(LIMITED);
        long share = swapAllowed(limited, task(64, Map.of()));
        long own = swapAllowed(limited, task(64, Map.of("swap_mb", 8)));
        if (share != -1) {
            assertThat(share).isEqualTo(16L << 20); // 64 MiB × 4 GiB / 16 GiB
            assertThat(own).isEqualTo(8L << 20);
        }
        assertThatThrownBy(() -> limited.validate(Map.of("command", "/bin/true", "swap_mb", -1)))
                .isInstanceOf(TaskConfigValidationException.class).hasMessageContaining("swap_mb");
    }
}
