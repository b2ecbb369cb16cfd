// Compiled and run by perf/tick-cost.sh against a build (not part of the agent).
package h;

import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;

import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricsNaming;
import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.stats.*;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/** Java cost of a task-stats tick with N tasks whose reader returns a v1-shaped sample (no kernel reads). */
public class TickCost {
    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        int ticks = Integer.parseInt(args[1]);
        TaskStatsCollector collector = new TaskStatsCollector(true, Duration.ofSeconds(10), t -> {
            long[] c = {0};
            return () -> {
                c[0] += 1_000_000;
                TaskMemoryStats.Builder m = new TaskMemoryStats.Builder();
                for (TaskMemoryField f : TaskMemoryField.values()) {
                    m.set(f, 1000 + c[0] % 7);
                }
                return new TaskRawSample(m.build(), new TaskCpuTimes(c[0], c[0] / 2, c[0] / 2, 0, 0, EnumSet.allOf(TaskCpuField.class)), Map.of());
            };
        }, new TaskCpuCapacity(4000, 2), Clock.systemUTC());
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new TaskStatsMetrics(collector, new BerthMetrics(registry, MetricsNaming.PROMETHEUS, "h", "n", "dc1", ""), true).bind();
        for (int i = 0; i < n; i++) {
            collector.register(new TaskStatsTarget("alloc-" + i, "t", "job", "g", "default", CgroupVersion.NONE, Map.of(), 1, 0));
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (int round = 0; round < 4; round++) {
            long cpu0 = os.getProcessCpuTime();
            long alloc0 = threads.getTotalThreadAllocatedBytes();
            for (int i = 0; i < ticks; i++) {
                collector.collect();
            }
            long cpu1 = os.getProcessCpuTime();
            long alloc1 = threads.getTotalThreadAllocatedBytes();
            System.out.printf("round %d: %d tasks, %.3f ms CPU per tick, %.1f KB allocated per tick, series %d%n", round, n,
                    (cpu1 - cpu0) / 1e6 / ticks, (alloc1 - alloc0) / 1024.0 / ticks, registry.getMeters().size());
        }
        collector.stop();
    }
}
