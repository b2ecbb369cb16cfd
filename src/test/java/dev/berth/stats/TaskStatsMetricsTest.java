package dev.berth.stats;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricsNaming;
import dev.berth.host.cgroup.CgroupVersion;

import static org.assertj.core.api.Assertions.assertThat;
import dev.berth.support.TestClock;

class TaskStatsMetricsTest {

    private final Map<String, TaskRawSample> samples = new ConcurrentHashMap<>();
    private final TestClock clock = new TestClock(java.time.Instant.parse("2026-11-22T00:00:00Z"));
    private final TaskStatsCollector collector = new TaskStatsCollector(true, Duration.ofSeconds(1),
            t -> () -> samples.get(t.allocId() + "/" + t.task()), DescriptorBudget.ofProcessLimit(), new TaskCpuCapacity(1000, 1), clock);

    @Test
    void prometheusNamingUsesBaseUnitsAndTotalCountersAndDropsSeriesOfUnregisteredAllocs() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new TaskStatsMetrics(collector, new BerthMetrics(registry, MetricsNaming.PROMETHEUS, "node1", "n-1", "dc1", ""), true).bind();
        samples.put("a1/web", v2Sample(300L << 20, 50L << 20));
        collector.register(target("a1", "web"));
        collector.collect();

        String scrape = registry.scrape();
        assertThat(scrape)
                .contains("berth_task_memory_working_set_bytes{alloc_id=\"a1\",job=\"shop\",namespace=\"default\",task=\"web\",task_group=\"front\"} 2.62144E8")
                .contains("berth_task_memory_usage_bytes{alloc_id=\"a1\"")
                .contains("berth_task_memory_rss_bytes{")
                .contains("berth_task_cpu_seconds_total{alloc_id=\"a1\",job=\"shop\",mode=\"user\"")
                .contains("berth_task_cpu_usage_seconds_total{alloc_id=\"a1\",job=\"shop\",namespace=\"default\",task=\"web\",task_group=\"front\"} 3.0")
                .contains("berth_task_cpu_throttled_periods_total{")
                .contains("berth_task_cpu_throttled_seconds_total{")
                .doesNotContain("berth_task_memory_kernel_usage_bytes") // not measured: no series, never a silent 0
                .doesNotContain("host=");

        collector.unregister("a1", "web");

        assertThat(registry.scrape()).doesNotContain("berth_task_");
        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void nomadNamingPublishesMemoryOnlyWhenNonZeroOrMeasuredAndCpuAlways() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new TaskStatsMetrics(collector, new BerthMetrics(registry, MetricsNaming.NOMAD, "node1", "n-1", "dc1", ""), true).bind();
        samples.put("a1/web", new TaskRawSample(
                new TaskMemoryStats(1_486_848, 0, 0, 0, 0, 0, 0, 0, 0, Set.of(TaskMemoryField.RSS, TaskMemoryField.SWAP)),
                TaskCpuTimes.NONE, Map.of()));
        collector.register(target("a1", "web"));
        collector.collect();

        assertThat(registry.get("nomad.client.allocs.memory.rss")
                .tags("alloc_id", "a1", "task", "web", "task_group", "front", "job", "shop", "namespace", "default", "host", "node1")
                .gauge().value()).isEqualTo(1_486_848);
        assertThat(registry.find("nomad.client.allocs.memory.swap").gauge()).isNotNull(); // 0 but measured
        assertThat(registry.find("nomad.client.allocs.memory.cache").gauge()).isNull(); // 0 and not measured
        assertThat(registry.find("nomad.client.allocs.memory.kernel_usage").gauge()).isNull();
        for (String cpu : new String[] {"total_percent", "system", "user", "throttled_time", "throttled_periods", "total_ticks"}) {
            assertThat(registry.find("nomad.client.allocs.cpu." + cpu).gauge()).as(cpu).isNotNull();
        }
    }

    @Test
    void nomadTotalTicksCountGrowsByTotalTicksOncePerNewSampleAndGoesWithTheTask() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new TaskStatsMetrics(collector, new BerthMetrics(registry, MetricsNaming.NOMAD, "node1", "n-1", "dc1", ""), true).bind();
        samples.put("a1/web", cpuSample(0));
        collector.register(target("a1", "web"));
        collector.collect();
        clock.advance(java.time.Duration.ofSeconds(1));
        samples.put("a1/web", cpuSample(500_000_000L)); // half a core for 1 s: 50 % → 0.5 × 1000 MHz / 1 core
        collector.collect();

        assertThat(registry.get("nomad.client.allocs.cpu.total_ticks_count").counter().count()).isEqualTo(500.0);
        assertThat(registry.get("nomad.client.allocs.cpu.total_ticks").gauge().value()).isEqualTo(500.0);

        collector.unregister("a1", "web");
        assertThat(registry.find("nomad.client.allocs.cpu.total_ticks_count").counter()).isNull();
    }

    @Test
    void nomadNamesRenderExactlyInPrometheus() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new TaskStatsMetrics(collector, new BerthMetrics(registry, MetricsNaming.NOMAD, "node1", "n-1", "dc1", ""), true).bind();
        samples.put("a1/web", v1Sample(300L << 20, 50L << 20));
        collector.register(target("a1", "web"));
        collector.collect();

        assertThat(registry.scrape())
                .contains("nomad_client_allocs_memory_rss{alloc_id=\"a1\",host=\"node1\",job=\"shop\",namespace=\"default\",task=\"web\",task_group=\"front\"}")
                .contains("nomad_client_allocs_cpu_total_ticks{")
                .contains("nomad_client_allocs_memory_kernel_max_usage{");
    }

    @Test
    void withoutAllocationLabelsTasksOfOneGroupAreSummedAndVanishWithTheirLastAlloc() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new TaskStatsMetrics(collector, new BerthMetrics(registry, MetricsNaming.PROMETHEUS, "node1", "n-1", "dc1", ""), false).bind();
        samples.put("a1/web", v1Sample(100, 10));
        samples.put("a2/web", v1Sample(200, 20));
        collector.register(target("a1", "web"));
        collector.register(target("a2", "web"));
        collector.collect();

        assertThat(registry.get("berth.task.memory.usage").tags("job", "shop", "task", "web", "task_group", "front").gauge().value())
                .isEqualTo(300);
        assertThat(registry.find("berth.task.memory.usage").tagKeys("alloc_id").gauges()).isEmpty();

        collector.unregister("a1", "web");
        assertThat(registry.get("berth.task.memory.usage").gauge().value()).isEqualTo(200);
        collector.unregister("a2", "web");
        assertThat(registry.find("berth.task.memory.usage").gauges()).isEmpty();
    }

    @Test
    void ticksOverTheSameTasksSumEachTickAfreshWithTheSameMeters() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new TaskStatsMetrics(collector, new BerthMetrics(registry, MetricsNaming.PROMETHEUS, "node1", "n-1", "dc1", ""), false).bind();
        samples.put("a1/web", v1Sample(100, 10));
        samples.put("a2/web", v1Sample(200, 20));
        samples.put("a3/db", v1Sample(7, 0));
        collector.register(target("a1", "web"));
        collector.register(target("a2", "web"));
        collector.register(target("a3", "db"));
        collector.collect();
        var web = registry.get("berth.task.memory.usage").tags("task", "web").gauge();
        int meters = registry.getMeters().size();

        for (long tick = 1; tick <= 3; tick++) {
            samples.put("a1/web", v1Sample(100 * tick, 10));
            samples.put("a2/web", v1Sample(1000 * tick, 20));
            samples.put("a3/db", v1Sample(7 * tick, 0));
            collector.collect();
            assertThat(web.value()).isEqualTo(1100.0 * tick); // the sum of this tick, not added to the last one
            assertThat(registry.get("berth.task.memory.usage").tags("task", "db").gauge().value()).isEqualTo(7.0 * tick);
            assertThat(registry.get("berth.task.memory.usage").tags("task", "web").gauge()).isSameAs(web);
            assertThat(registry.getMeters()).hasSize(meters);
        }
    }

    @Test
    void seriesFollowWhatIsMeasuredAndATaskReRegisteredUnderNewLabelsMovesItsSeries() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new TaskStatsMetrics(collector, new BerthMetrics(registry, MetricsNaming.PROMETHEUS, "node1", "n-1", "dc1", ""), true).bind();
        samples.put("a1/web", v2Sample(100, 10)); // v2: no kernel memory
        collector.register(target("a1", "web"));
        collector.collect();
        var first = registry.get("berth.task.memory.usage").gauge();
        assertThat(registry.find("berth.task.memory.kernel_usage").gauge()).isNull();

        samples.put("a1/web", v1Sample(150, 10)); // now measured: its series appears, the others stay the same meters
        collector.collect();
        assertThat(registry.get("berth.task.memory.kernel_usage").gauge().value()).isEqualTo(1);
        assertThat(registry.get("berth.task.memory.usage").gauge()).isSameAs(first);
        assertThat(first.value()).isEqualTo(150);
        int meters = registry.getMeters().size();
        collector.collect();
        assertThat(registry.getMeters()).hasSize(meters);

        samples.put("a1/web", v2Sample(150, 10)); // no longer measured: the series goes, never a stale value
        collector.collect();
        assertThat(registry.find("berth.task.memory.kernel_usage").gauge()).isNull();

        collector.register(new TaskStatsTarget("a1", "web", "shop-v2", "front", "default", CgroupVersion.NONE, Map.of(), 1, 0));
        collector.collect();
        assertThat(registry.find("berth.task.memory.usage").tag("job", "shop").gauges()).isEmpty();
        assertThat(registry.get("berth.task.memory.usage").tag("job", "shop-v2").gauge().value()).isEqualTo(150);
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(MetricsNaming.class)
    void theTaskExpositionPassesPromtoolInBothModes(MetricsNaming naming) throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new TaskStatsMetrics(collector, new BerthMetrics(registry, naming, "node1", "n-1", "dc1", ""), true).bind();
        samples.put("a1/web", v1Sample(300L << 20, 50L << 20));
        samples.put("a2/web", v2Sample(200L << 20, 10L << 20));
        collector.register(target("a1", "web"));
        collector.register(target("a2", "web"));
        collector.collect();

        String scrape = registry.scrape();
        dev.berth.support.Promtool.Result result = dev.berth.support.Promtool.checkMetrics(scrape);

        assertThat(scrape).contains(naming == MetricsNaming.NOMAD ? "nomad_client_allocs_" : "berth_task_");
        assertThat(result.exitCode()).as(result.output()).isZero();
    }

    private static TaskRawSample cpuSample(long totalNs) {
        return new TaskRawSample(TaskMemoryStats.NONE, new TaskCpuTimes(totalNs, 0, 0, 0, 0, Set.of(TaskCpuField.PERCENT)), Map.of());
    }

    private static TaskStatsTarget target(String alloc, String task) {
        return new TaskStatsTarget(alloc, task, "shop", "front", "default", CgroupVersion.NONE, Map.of(), 1, 0);
    }

    private static TaskRawSample v2Sample(long usage, long inactiveFile) {
        return sample(usage, inactiveFile, Set.of(TaskMemoryField.KERNEL_USAGE, TaskMemoryField.KERNEL_MAX_USAGE));
    }

    private static TaskRawSample v1Sample(long usage, long inactiveFile) {
        return sample(usage, inactiveFile, Set.of());
    }

    private static TaskRawSample sample(long usage, long inactiveFile, Set<TaskMemoryField> unmeasured) {
        TaskMemoryStats.Builder memory = new TaskMemoryStats.Builder();
        for (TaskMemoryField field : TaskMemoryField.values()) {
            if (!unmeasured.contains(field)) {
                memory.set(field, 1);
            }
        }
        memory.set(TaskMemoryField.USAGE, usage).set(TaskMemoryField.WORKING_SET, usage - inactiveFile);
        return new TaskRawSample(memory.build(), new TaskCpuTimes(3_000_000_000L, 2_000_000_000L, 1_000_000_000L, 4, 5_000_000,
                Set.of(TaskCpuField.values())), Map.of());
    }
}
