package dev.berth.stats;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import dev.berth.config.NodeIdentity;
import dev.berth.host.cgroup.CgroupLimits;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.host.cgroup.CgroupMounts;
import dev.berth.host.cgroup.TaskCgroup;

/**
 * One collector tick over N registered tasks, each a real v1 task cgroup holding a sleeping process. Prints the
 * process CPU time per tick at the end: at the default 1 s interval that is the collector's CPU share.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class TaskCollectorBenchmark {

    @Param("1000")
    public int tasks;

    private final List<Process> processes = new ArrayList<>();
    private final List<TaskCgroup> cgroups = new ArrayList<>();
    private CgroupManager manager;
    private TaskStatsCollector collector;
    private long ticks;
    private long cpuAtStart;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        manager = new CgroupManager(CgroupMounts.parse(Files.readAllLines(Path.of("/proc/self/mountinfo"))),
                new NodeIdentity(UUID.randomUUID().toString()), CgroupManager.REAL_SLEEPER);
        Clock clock = Clock.systemUTC();
        collector = new TaskStatsCollector(true, Duration.ofSeconds(10), new TaskStatsReaders(Path.of("/proc"), clock, DescriptorBudget.ofProcessLimit()),
                DescriptorBudget.ofProcessLimit(), new TaskCpuCapacity(2000, 2), clock);
        for (int i = 0; i < tasks; i++) {
            TaskCgroup cgroup = manager.create("alloc-" + i, "t", CgroupLimits.none()).orElseThrow();
            cgroups.add(cgroup);
            Process sleep = new ProcessBuilder("sleep", "3600").start();
            processes.add(sleep);
            cgroup.addProcess(sleep.pid());
            collector.register(new TaskStatsTarget("alloc-" + i, "t", "j", "g", "default", cgroup.version(), cgroup.dirs(), 0, 0));
        }
        cpuAtStart = cpuNanos();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        long cpu = cpuNanos() - cpuAtStart;
        System.out.printf("%n[collector] %d tasks: %d ticks, %.2f ms process CPU per tick (all threads, incl. JMH)%n",
                tasks, ticks, cpu / 1e6 / Math.max(1, ticks));
        collector.stop();
        processes.forEach(Process::destroyForcibly);
        for (TaskCgroup cgroup : cgroups) {
            cgroup.remove();
        }
        manager.removeParentIfEmpty();
    }

    @Benchmark
    public int collectOnce() {
        collector.collect();
        ticks++;
        return collector.snapshots().size();
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
