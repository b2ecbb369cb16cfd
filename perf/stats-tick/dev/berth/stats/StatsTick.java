// Compiled and run by perf/stats-tick.sh against a build (not part of the agent). In the agent's package to use its
// package-private reader factory.
package dev.berth.stats;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricsNaming;
import dev.berth.host.cgroup.CgroupVersion;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The agent's task-stats tick over real cgroup v1 directories (one line per task: its memory, cpuacct and cpu
 * directories, blank-separated): the real readers, collector and meters, one tick every INTERVAL_MS. Prints the
 * process CPU per tick (kernel reads included) over ROUNDS windows of TICKS ticks, after WARM ticks. With
 * {@code -Dberth.bench.memory-events=true} the memory-events collector follows the tick as in the agent (memory.failcnt,
 * memory.memsw.failcnt and memory.oom_control per task), and its own CPU per tick (thread CPU time of its update) is
 * printed beside the tick's.
 */
public class StatsTick {
    public static void main(String[] args) throws Exception {
        List<String> lines = Files.readAllLines(Path.of(args[0]));
        int warm = Integer.parseInt(args[1]);
        int ticks = Integer.parseInt(args[2]);
        long intervalNs = Long.parseLong(args[3]) * 1_000_000L;
        int rounds = Integer.parseInt(args[4]);
        TaskStatsCollector collector = new TaskStatsCollector(true, Duration.ofSeconds(1),
                new TaskStatsReaders(Path.of("/proc"), Clock.systemUTC()), new TaskCpuCapacity(4000, 2), Clock.systemUTC());
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        BerthMetrics berthMetrics = new BerthMetrics(registry, MetricsNaming.PROMETHEUS, "h", "n", "dc1", "");
        new TaskStatsMetrics(collector, berthMetrics, true).bind();
        long[] eventsCpu = new long[1];
        if (Boolean.getBoolean("berth.bench.memory-events")) {
            TaskMemoryEventsCollector events = new TaskMemoryEventsCollector(100, Duration.ofMinutes(5),
                    new TaskMemoryEventsMetrics(berthMetrics));
            java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
            collector.addListener(snapshots -> {
                long t0 = bean.getCurrentThreadCpuTime();
                events.update(snapshots);
                eventsCpu[0] += bean.getCurrentThreadCpuTime() - t0;
            });
        }
        int i = 0;
        for (String line : lines) {
            String[] d = line.trim().split("\\s+");
            collector.register(new TaskStatsTarget("alloc-" + i++, "t", "job", "g", "default", CgroupVersion.V1,
                    Map.of("memory", Path.of(d[0]), "cpuacct", Path.of(d[1]), "cpu", Path.of(d[2])), 1, 0));
        }
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long next = System.nanoTime();
        for (int t = 0; t < warm; t++) {
            collector.collect();
            next = pace(next, intervalNs);
        }
        for (int round = 0; round < rounds; round++) {
            long cpu0 = os.getProcessCpuTime();
            long[] times0 = userSystemTicks();
            long alloc0 = threads.getTotalThreadAllocatedBytes();
            long events0 = eventsCpu[0];
            for (int t = 0; t < ticks; t++) {
                collector.collect();
                next = pace(next, intervalNs);
            }
            long cpu1 = os.getProcessCpuTime();
            long[] times1 = userSystemTicks();
            long alloc1 = threads.getTotalThreadAllocatedBytes();
            System.out.printf("round %d: %d tasks, %.3f ms CPU per tick (user %.2f, system %.2f), %.1f KB allocated per tick,"
                    + " snapshots %d, series %d, memory events %.3f ms CPU per tick (%.1f %% of the tick)%n", round, lines.size(),
                    (cpu1 - cpu0) / 1e6 / ticks, (times1[0] - times0[0]) * 10.0 / ticks, (times1[1] - times0[1]) * 10.0 / ticks,
                    (alloc1 - alloc0) / 1024.0 / ticks, collector.snapshots().size(), registry.getMeters().size(),
                    (eventsCpu[0] - events0) / 1e6 / ticks, 100.0 * (eventsCpu[0] - events0) / (cpu1 - cpu0));
        }
        collector.stop();
    }

    /** This process's user and system time in clock ticks (USER_HZ = 100) from /proc/self/stat. */
    private static long[] userSystemTicks() throws java.io.IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12])};
    }

    private static long pace(long next, long intervalNs) {
        next += intervalNs;
        long wait = next - System.nanoTime();
        if (wait > 0) {
            LockSupport.parkNanos(wait);
        }
        return next;
    }
}
