package dev.berth.stats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricsNaming;
import dev.berth.config.NodeIdentity;
import dev.berth.driver.ExitResult;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.exec.ExecDriver;
import dev.berth.driver.rawexec.RawExecDriver;
import dev.berth.driver.rawexec.TaskOutputs;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.host.cgroup.HostCgroups;
import dev.berth.host.cgroup.TaskCgroup;
import dev.berth.stats.TaskMemoryEvents.Event;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Memory events of real exec tasks in this host's real cgroups, read by the stats tick (v1 on the build machine, v2 in
 * the VM of {@code .ci/v2-stage.sh}). A task without headroom ({@code memory_max} = {@code memory}: no
 * {@code memory.high}) that allocates without end is OOM-killed: its exit says so and its counters, read after the
 * exit and before its cgroup goes, count the kill. A task that allocates, again and again, a size between its
 * {@code memory.high} and its {@code memory_max} is throttled at every round without ever being OOM-killed (v2): its
 * {@code high} counter rises and a burst is told; v1 has no throttling point and no such counter, only the soft limit.
 * Every wait is on a condition the kernel is bound to reach, with a bound far above what it takes.
 */
class MemoryEventsKernelTest {

    private static final NodeIdentity NODE = new NodeIdentity(UUID.randomUUID().toString());
    private static final Duration BOUND = Duration.ofMinutes(5);

    @TempDir
    Path root;

    private CgroupManager cgroups;
    private ExecDriver driver;
    private TaskStatsCollector stats;
    private TaskMemoryEventsCollector events;
    private final List<MemoryThrottling> told = new CopyOnWriteArrayList<>();
    private TaskHandle handle;

    @BeforeEach
    void setUp() {
        cgroups = HostCgroups.manager(NODE);
        RawExecDriver processes = new RawExecDriver(true, Clock.systemUTC(), root.resolve("exits"), new ScheduledThreadPoolExecutor(1),
                Duration.ofMillis(50), TaskOutputs.APPEND_TO_FILES);
        driver = new ExecDriver(true, processes, cgroups, 4096, 2000);
        DescriptorBudget budget = DescriptorBudget.ofProcessLimit();
        stats = new TaskStatsCollector(true, Duration.ofSeconds(1), new TaskStatsReaders(Path.of("/proc"), Clock.systemUTC(), budget),
                budget, new TaskCpuCapacity(4000, 2), Clock.systemUTC());
        // any rise of high between two ticks is a burst here, told at once
        events = new TaskMemoryEventsCollector(0, Duration.ofNanos(1), new TaskMemoryEventsMetrics(
                new BerthMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), MetricsNaming.PROMETHEUS, "h", "n", "dc1", "")), budget);
        events.bind(stats);
    }

    @AfterEach
    void tearDown() throws Exception {
        stats.stop();
        if (handle != null) {
            driver.destroy(handle, true);
        }
        driver.close();
        cgroups.removeParentIfEmpty();
    }

    @Test
    void aTaskWithoutHeadroomIsOomKilledAndItsCountersSayItBeforeItsCgroupGoes() throws Exception {
        TaskConfig task = task("exec tail /dev/zero", 32, 0);
        handle = driver.start(task);
        TaskCgroup cgroup = register(task);
        if (cgroup.version() == CgroupVersion.V2) {
            assertThat(Files.readString(cgroup.dir("memory").resolve("memory.high")).strip()).isEqualTo("max");
        }

        CompletableFuture<ExitResult> exit = driver.waitTask(handle);
        await().atMost(BOUND).until(exit::isDone);
        assertThat(exit.get().oomKilled()).isTrue();

        // the exited task's cgroup is still there until the driver destroys it: the tick reads the kill
        stats.collect();
        TaskMemoryEvents counted = events.events(task.allocId(), task.taskName()).orElseThrow();
        assertThat(counted.has(Event.OOM_KILL)).isTrue();
        assertThat(counted.oomKill()).isGreaterThanOrEqualTo(1);
        if (cgroup.version() == CgroupVersion.V2) {
            assertThat(counted.max()).isGreaterThanOrEqualTo(1);
            assertThat(counted.oom()).isGreaterThanOrEqualTo(1);
            assertThat(counted.high()).as("no memory.high was set").isZero();
        } else {
            // failcnt is read, but kernel 6.18 may leave it at 0 after an OOM kill: only that it is measured is certain
            assertThat(counted.has(Event.FAILCNT)).isTrue();
            assertThat(counted.has(Event.HIGH)).isFalse();
        }
        assertThat(told).isEmpty();
    }

    @Test
    void aTaskBetweenItsMemoryHighAndMaxIsThrottledOnV2AndHasOnlyItsSoftLimitOnV1() throws Exception {
        // memory 16 MiB, memory_max 512 MiB: v2 memory.high is 462.4 MiB; each round holds 480 MiB (plus tail's few
        // KiB of bookkeeping), above memory.high and 32 MiB under memory.max, so it is throttled and never OOM-killed
        TaskConfig task = task("while :; do head -c 480m /dev/zero | tail -c 480m > /dev/null; done", 16, 512);
        boolean v2 = HostCgroups.version() == CgroupVersion.V2;
        if (!v2) {
            task = task("exec sleep 600", 16, 512); // nothing on v1 counts what a workload does above the soft limit
        }
        handle = driver.start(task);
        TaskCgroup cgroup = register(task);
        String allocId = task.allocId();
        String name = task.taskName();

        if (v2) {
            assertThat(Long.parseLong(Files.readString(cgroup.dir("memory").resolve("memory.high")).strip()))
                    .isBetween(462L << 20, 463L << 20);
            await().atMost(BOUND).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
                stats.collect();
                assertThat(told).isNotEmpty();
            });
            MemoryThrottling burst = told.getFirst();
            assertThat(burst.allocId()).isEqualTo(allocId);
            assertThat(burst.highRise()).isPositive();
            assertThat(burst.events().high()).isGreaterThanOrEqualTo(burst.highRise());
            assertThat(events.events(allocId, name).orElseThrow().oomKill()).as("throttled, never killed").isZero();
        } else {
            assertThat(Long.parseLong(Files.readString(cgroup.dir("memory").resolve("memory.soft_limit_in_bytes")).strip()))
                    .isEqualTo(16L << 20);
            await().atMost(BOUND).untilAsserted(() -> {
                stats.collect();
                assertThat(events.events(allocId, name)).isPresent();
            });
            TaskMemoryEvents counted = events.events(allocId, name).orElseThrow();
            assertThat(counted.has(Event.HIGH)).isFalse();
            assertThat(counted.has(Event.FAILCNT)).isTrue();
            assertThat(counted.has(Event.OOM_KILL)).isTrue();
            assertThat(counted.has(Event.UNDER_OOM)).isTrue();
            assertThat(counted.underOom()).isFalse();
            stats.collect();
            assertThat(told).isEmpty();
        }
    }

    private TaskCgroup register(TaskConfig task) {
        TaskCgroup cgroup = driver.cgroupOf(handle).orElseThrow();
        stats.register(new TaskStatsTarget(task.allocId(), task.taskName(), "job", "group", "default", cgroup.version(),
                cgroup.dirs(), 0, 0));
        events.watch(task.allocId(), task.taskName(), told::add);
        return cgroup;
    }

    private TaskConfig task(String script, int memoryMb, int memoryMaxMb) throws IOException {
        String allocId = UUID.randomUUID().toString();
        Path taskDir = Files.createDirectories(root.resolve(allocId).resolve("web"));
        return new TaskConfig(allocId + "/web", allocId, "web", "job", "group", "default",
                Map.of("command", "/bin/sh", "args", List.of("-c", script)), Map.of("PATH", "/usr/bin:/bin"),
                root.resolve(allocId), taskDir, taskDir.resolve("out"), taskDir.resolve("err"), 0, memoryMb, memoryMaxMb, null);
    }
}
