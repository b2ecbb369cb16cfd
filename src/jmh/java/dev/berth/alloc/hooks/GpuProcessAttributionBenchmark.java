package dev.berth.alloc.hooks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.stats.TaskStatsTarget;

/**
 * Attribution of one statistics item's GPU processes — 8 GPUs × 64 compute processes = 512 pids — to the tasks of the
 * allocations holding the GPUs (8 allocations, one task each), as {@link TaskProcessOwners} does after every
 * {@code nvidia-smi --query-compute-apps} read.
 *
 * <ul>
 * <li>{@code synthetic-cgroup}: a procfs tree in a temporary directory, every pid in a sub-cgroup of its task's cgroup
 * v2 directory (one {@code cgroup} file read and an ancestor walk of the path per pid);</li>
 * <li>{@code synthetic-tree}: the tasks have no cgroup; every pid is a grandchild of its task's root (two
 * {@code stat} reads per pid, the root's memoized);</li>
 * <li>{@code proc-foreign}: the real {@code /proc}: up to 512 of the machine's own processes (repeated when fewer),
 * none belonging to a task — every pid costs its {@code cgroup} read plus a {@code stat} walk up to pid 1 (memoized
 * per call), the worst case.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class GpuProcessAttributionBenchmark {

    static final int GPUS = 8;

    static final int PROCESSES_PER_GPU = 64;

    @Param({ "synthetic-cgroup", "synthetic-tree", "proc-foreign" })
    String source;

    Path root;

    List<TaskStatsTarget> targets;

    List<Long> pids;

    @Setup
    public void setUp() throws IOException {
        targets = new ArrayList<>();
        pids = new ArrayList<>();
        if (source.equals("proc-foreign")) {
            root = null;
            List<Long> live = new ArrayList<>();
            try (Stream<Path> entries = Files.list(Path.of("/proc"))) {
                entries.map((p) -> p.getFileName().toString()).filter((n) -> n.chars().allMatch(Character::isDigit))
                        .map(Long::parseLong).sorted().forEach(live::add);
            }
            for (int i = 0; pids.size() < GPUS * PROCESSES_PER_GPU; i++) {
                pids.add(live.get(i % live.size()));
            }
            for (int g = 0; g < GPUS; g++) {
                targets.add(new TaskStatsTarget("alloc-" + g, "t", "job", "g", "default", CgroupVersion.V2,
                        Map.of("unified", Path.of("/sys/fs/cgroup/berth-bench/alloc-" + g + ".t")), 0, 0));
            }
            return;
        }
        root = Files.createTempDirectory("berth-bench-proc");
        boolean cgroups = source.equals("synthetic-cgroup");
        long pid = 1000;
        for (int g = 0; g < GPUS; g++) {
            long taskRoot = pid++;
            String cgroup = "/berth-node/alloc-" + g + ".trainer";
            write(taskRoot, 1, 100, "0::" + cgroup + "\n");
            long launcher = pid++;
            write(launcher, taskRoot, 101, "0::" + cgroup + "\n");
            targets.add(cgroups
                    ? new TaskStatsTarget("alloc-" + g, "trainer", "job", "g", "default", CgroupVersion.V2,
                            Map.of("unified", Path.of("/sys/fs/cgroup" + cgroup)), 0, 0)
                    : new TaskStatsTarget("alloc-" + g, "trainer", "job", "g", "default", CgroupVersion.NONE, Map.of(), taskRoot, 100));
            for (int p = 0; p < PROCESSES_PER_GPU; p++) {
                long worker = pid++;
                write(worker, launcher, 200 + p, "0::" + (cgroups ? cgroup + "/workers" : "/user.slice") + "\n");
                pids.add(worker);
            }
        }
    }

    private void write(long pid, long ppid, long startTicks, String cgroup) throws IOException {
        Path dir = Files.createDirectories(root.resolve(Long.toString(pid)));
        Files.writeString(dir.resolve("stat"), pid + " (python3) S " + ppid + " " + pid + " " + pid
                + " 0 -1 4194304 100 0 0 0 5 1 0 0 20 0 1 0 " + startTicks + " 12345 67 18446744073709551615\n");
        Files.writeString(dir.resolve("cgroup"), cgroup);
    }

    @TearDown
    public void tearDown() throws IOException {
        if (root != null) {
            try (Stream<Path> files = Files.walk(root)) {
                files.sorted(Comparator.reverseOrder()).forEach((p) -> p.toFile().delete());
            }
        }
    }

    @Benchmark
    public Map<Long, TaskStatsTarget> attribute512Processes() {
        return new ProcessAttribution(root == null ? Path.of("/proc") : root, targets).owners(pids);
    }
}
