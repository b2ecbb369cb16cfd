package dev.berth.stats;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.berth.config.NodeIdentity;
import dev.berth.host.cgroup.CgroupLimits;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.host.cgroup.CgroupMounts;
import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.host.cgroup.TaskCgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Real processes, real kernel files: a task that touches 256 MiB is reported within 10 %, a busy loop reads about one
 * core, an idle task about 0 — once through its cgroup (v1 on this host) and once through its /proc process tree.
 */
class TaskStatsKernelTest {

    private static final long MIB = 1 << 20;

    enum Source { CGROUP, PROC_TREE }

    private final List<Process> processes = new ArrayList<>();
    private final List<TaskCgroup> cgroups = new ArrayList<>();
    private final Map<Long, TaskCgroup> cgroupByPid = new java.util.HashMap<>();
    private final CgroupManager cgroupManager;

    TaskStatsKernelTest() throws IOException {
        cgroupManager = new CgroupManager(CgroupMounts.parse(Files.readAllLines(Path.of("/proc/self/mountinfo"))),
                new NodeIdentity(UUID.randomUUID().toString()), CgroupManager.REAL_SLEEPER);
    }

    @AfterEach
    void tearDown() throws IOException {
        processes.forEach(p -> p.descendants().forEach(ProcessHandle::destroyForcibly));
        processes.forEach(Process::destroyForcibly);
        for (TaskCgroup cgroup : cgroups) {
            cgroup.remove();
        }
        cgroupManager.removeParentIfEmpty();
    }

    @ParameterizedTest
    @EnumSource(Source.class)
    void memoryOfA256MibTaskIsReportedWithinTenPercent(Source source) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process hog = start(source, java, "-Xmx32m", "-XX:MaxDirectMemorySize=512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), MemoryHog.class.getName(), "256");
        BufferedReader out = new BufferedReader(new InputStreamReader(hog.getInputStream(), StandardCharsets.US_ASCII));
        assertThat(out.readLine()).isEqualTo("ready");
        TaskSampler sampler = sampler(source, hog);
        TaskMemoryStats before = sampler.sample().usage().memory();

        OutputStream stdin = hog.getOutputStream();
        stdin.write('\n');
        stdin.flush();
        assertThat(out.readLine()).startsWith("allocated");
        TaskMemoryStats after = sampler.sample().usage().memory();

        assertThat(after.rss() - before.rss()).isBetween((long) (256 * MIB * 0.9), (long) (256 * MIB * 1.1));
        if (source == Source.CGROUP) {
            assertThat(after.workingSet() - before.workingSet()).isBetween((long) (256 * MIB * 0.9), (long) (256 * MIB * 1.1));
            assertThat(after.usage()).isGreaterThanOrEqualTo(after.rss());
            assertThat(after.measured()).contains("RSS", "Cache", "Swap", "Usage", "Max Usage");
        } else {
            assertThat(after.measured()).containsExactly("RSS", "Swap");
        }
    }

    @ParameterizedTest
    @EnumSource(Source.class)
    void aBusyLoopReadsAboutOneCoreAndAnIdleTaskAboutNothing(Source source) throws Exception {
        Process busy = start(source, "/bin/sh", "-c", "while :; do :; done");
        Process idle = start(source, "sleep", "300");
        // the idle window starts once the idle task is really idle: its start-up (the joining shell, the exec of sleep)
        // costs CPU, a lot of it on a slow or busy machine, and is not what this measures
        await().atMost(Duration.ofSeconds(60)).until(() -> asleepAs(idle.pid(), "sleep"));
        TaskSampler busySampler = sampler(source, busy);
        TaskSampler idleSampler = sampler(source, idle);
        busySampler.sample();
        idleSampler.sample();
        Duration cpuBefore = busy.info().totalCpuDuration().orElseThrow();
        long wallBefore = System.nanoTime();

        // a real second of wall time between two samples, waited for by Awaitility rather than a sleep
        await().pollDelay(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> true);
        TaskCpuStats busyCpu = busySampler.sample().usage().cpu();
        TaskCpuStats idleCpu = idleSampler.sample().usage().cpu();
        double independent = (busy.info().totalCpuDuration().orElseThrow().minus(cpuBefore).toNanos() * 100.0)
                / (System.nanoTime() - wallBefore);

        // on a busy machine the loop gets anything from a few percent of a core (load average 20 on 2 cores: 4.6 % seen) to
        // a whole core, so no fixed floor: the check is against the JDK's own account of the process over the same window
        assertThat(busyCpu.percent()).isBetween(independent - 15, independent + 15).isGreaterThan(0.0).isLessThan(110.0);
        assertThat(busyCpu.userMode() + busyCpu.systemMode()).isBetween(busyCpu.percent() - 15, busyCpu.percent() + 15);
        assertThat(busyCpu.totalTicks()).isPositive();
        assertThat(idleCpu.percent()).isLessThan(2.0);
        assertThat(busyCpu.measured()).contains("System Mode", "User Mode", "Percent");
    }

    /** Whether {@code /proc/<pid>/stat} shows the process as {@code comm} (its exec done) and sleeping. */
    private static boolean asleepAs(long pid, String comm) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            int close = stat.lastIndexOf(')');
            return stat.substring(stat.indexOf('(') + 1, close).equals(comm) && stat.charAt(close + 2) == 'S';
        } catch (IOException | RuntimeException gone) {
            return false;
        }
    }

    private Process start(Source source, String... command) throws IOException {
        Process process;
        if (source == Source.CGROUP) {
            assumeTrue(cgroupManager.version() != CgroupVersion.NONE, "needs cgroups");
            TaskCgroup cgroup = cgroupManager.create("alloc-" + UUID.randomUUID(), "t", CgroupLimits.none()).orElseThrow();
            cgroups.add(cgroup);
            // the shell joins the cgroup itself before exec'ing the workload, so nothing runs outside it
            StringBuilder join = new StringBuilder();
            for (Path dir : cgroup.dirs().values()) {
                join.append("echo $$ > '").append(dir.resolve("cgroup.procs")).append("'; ");
            }
            List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", join + "exec \"$@\"", "task"));
            argv.addAll(List.of(command));
            process = new ProcessBuilder(argv).start();
            cgroupByPid.put(process.pid(), cgroup);
        } else {
            process = new ProcessBuilder(command).start();
        }
        processes.add(process);
        return process;
    }

    private TaskSampler sampler(Source source, Process process) throws IOException {
        TaskStatsTarget target;
        if (source == Source.CGROUP) {
            TaskCgroup cgroup = cgroupByPid.get(process.pid());
            await().atMost(Duration.ofSeconds(5)).until(() -> cgroup.pids().contains(process.pid()));
            target = new TaskStatsTarget("a", "t", "j", "g", "default", cgroup.version(), cgroup.dirs(), 0, 0);
        } else {
            target = new TaskStatsTarget("a", "t", "j", "g", "default", CgroupVersion.NONE, Map.of(), process.pid(),
                    dev.berth.host.ProcStat.read(process.pid()).orElseThrow().startTicks());
        }
        Clock clock = Clock.systemUTC();
        return new TaskSampler(target, new TaskStatsReaders(Path.of("/proc"), clock, DescriptorBudget.ofProcessLimit()).apply(target), new TaskCpuCapacity(2000, 2), clock);
    }
}
