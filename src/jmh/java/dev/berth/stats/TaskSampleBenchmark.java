package dev.berth.stats;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
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
 * Cost of sampling one task versus reading the same kernel files raw (open, read to EOF into a byte[], close; no
 * parsing). Needs root and cgroup v1 (this host): a real task cgroup holding a {@code sleep}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class TaskSampleBenchmark {

    private Process sleep;
    private CgroupManager manager;
    private TaskCgroup cgroup;
    private TaskSampler cgroupSampler;
    private TaskSampler procSampler;
    private String[] v1Files;
    private String[] procFiles;
    private final byte[] raw = new byte[8192];

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        manager = new CgroupManager(CgroupMounts.parse(Files.readAllLines(Path.of("/proc/self/mountinfo"))),
                new NodeIdentity(UUID.randomUUID().toString()), CgroupManager.REAL_SLEEPER);
        cgroup = manager.create("bench", "t", CgroupLimits.none()).orElseThrow();
        sleep = new ProcessBuilder("sleep", "3600").start();
        cgroup.addProcess(sleep.pid());
        Clock clock = Clock.systemUTC();
        TaskStatsReaders readers = new TaskStatsReaders(Path.of("/proc"), clock, DescriptorBudget.ofProcessLimit());
        TaskStatsTarget cgroupTarget = new TaskStatsTarget("bench", "t", "j", "g", "default", cgroup.version(), cgroup.dirs(), 0, 0);
        TaskStatsTarget procTarget = new TaskStatsTarget("bench", "p", "j", "g", "default", dev.berth.host.cgroup.CgroupVersion.NONE,
                Map.of(), sleep.pid(), dev.berth.host.ProcStat.read(sleep.pid()).orElseThrow().startTicks());
        TaskCpuCapacity capacity = new TaskCpuCapacity(2000, 2);
        cgroupSampler = new TaskSampler(cgroupTarget, readers.apply(cgroupTarget), capacity, clock);
        procSampler = new TaskSampler(procTarget, readers.apply(procTarget), capacity, clock);
        Path memory = cgroup.dir("memory");
        v1Files = new String[] {
                memory.resolve("memory.usage_in_bytes").toString(), memory.resolve("memory.max_usage_in_bytes").toString(),
                memory.resolve("memory.memsw.usage_in_bytes").toString(), memory.resolve("memory.kmem.usage_in_bytes").toString(),
                memory.resolve("memory.kmem.max_usage_in_bytes").toString(), memory.resolve("memory.stat").toString(),
                cgroup.dir("cpuacct").resolve("cpuacct.usage").toString(), cgroup.dir("cpuacct").resolve("cpuacct.stat").toString(),
                cgroup.dir("cpu").resolve("cpu.stat").toString()};
        procFiles = new String[] {"/proc/" + sleep.pid() + "/stat", "/proc/" + sleep.pid() + "/status"};
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        sleep.destroyForcibly();
        cgroup.remove();
        manager.removeParentIfEmpty();
    }

    @Benchmark
    public TaskStatsSnapshot sampleCgroupV1() throws IOException {
        return cgroupSampler.sample();
    }

    @Benchmark
    public long rawReadCgroupV1Files() throws IOException {
        return readAll(v1Files);
    }

    @Benchmark
    public long readStringCgroupV1Files() throws IOException {
        long total = 0;
        for (String file : v1Files) {
            total += Files.readString(Path.of(file)).length();
        }
        return total;
    }

    /** The /proc tree reader (tree cached, as between rescans): root stat check, then stat + status per process. */
    @Benchmark
    public TaskStatsSnapshot sampleProcTree() throws IOException {
        return procSampler.sample();
    }

    @Benchmark
    public long rawReadProcFiles() throws IOException {
        return readAll(procFiles);
    }

    private long readAll(String[] files) throws IOException {
        long total = 0;
        for (String file : files) {
            try (FileInputStream in = new FileInputStream(file)) {
                int n;
                while ((n = in.read(raw)) > 0) {
                    total += n;
                }
            }
        }
        return total;
    }
}
