package dev.berth.stats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricsNaming;
import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.host.cgroup.TaskCgroup;
import dev.berth.stats.TaskStatsTarget.TaskKey;
import dev.berth.support.Promtool;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The memory-events collector over cgroup files written in the kernel's format: counters after each tick, a
 * {@code Memory Throttled} notice for a rise of {@code high} above the burst (once per quiet period, later bursts
 * counted into the next), and the series in both naming modes.
 */
class TaskMemoryEventsCollectorTest {

    private static final long SECOND = 1_000_000_000L;
    private static final Duration QUIET = Duration.ofMinutes(5);

    @TempDir
    Path tmp;

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final List<MemoryThrottling> told = new ArrayList<>();

    private TaskMemoryEventsCollector collector(MetricsNaming naming, long burst) {
        TaskMemoryEventsCollector collector = new TaskMemoryEventsCollector(burst, QUIET,
                new TaskMemoryEventsMetrics(new BerthMetrics(registry, naming, "vm", "id", "dc1", "")), DescriptorBudget.ofProcessLimit());
        collector.watch("a1", "web", told::add);
        return collector;
    }

    private Path v2Dir(long high) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("v2"));
        Files.writeString(dir.resolve("memory.events"), "low 0\nhigh " + high + "\nmax 2\noom 1\noom_kill 1\noom_group_kill 0\n");
        return dir;
    }

    /** A tick whose sample of the task has new memory figures (a task charging memory). */
    private static Map<TaskKey, TaskStatsSnapshot> tick(CgroupVersion version, Path dir, long at) {
        return tick(version, dir, at, new TaskMemoryStats.Builder().set(TaskMemoryField.USAGE, at).build());
    }

    private static Map<TaskKey, TaskStatsSnapshot> tick(CgroupVersion version, Path dir, long at, TaskMemoryStats memory) {
        TaskStatsTarget target = new TaskStatsTarget("a1", "web", "job", "grp", "default", version,
                Map.of(version == CgroupVersion.V2 ? TaskCgroup.UNIFIED : "memory", dir), 0, 0);
        return Map.of(target.key(), new TaskStatsSnapshot(target, at, new TaskResourceUsage(memory, TaskCpuStats.NONE), Map.of()));
    }

    @Test
    void aTaskWhoseMemoryStandsStillIsReadOnlyEveryTenthTick() throws IOException {
        TaskMemoryEventsCollector collector = collector(MetricsNaming.PROMETHEUS, 100);
        TaskMemoryStats still = new TaskMemoryStats.Builder().set(TaskMemoryField.USAGE, 4096).build();
        Path dir = v2Dir(5);
        collector.update(tick(CgroupVersion.V2, dir, SECOND, still));
        v2Dir(6);
        for (int t = 2; t <= 1 + TaskMemoryEventsCollector.REREAD_AFTER; t++) {
            collector.update(tick(CgroupVersion.V2, dir, t * SECOND, still));
            assertThat(collector.events("a1", "web").orElseThrow().high()).as("tick %d", t).isEqualTo(5);
        }
        collector.update(tick(CgroupVersion.V2, dir, (2 + TaskMemoryEventsCollector.REREAD_AFTER) * SECOND, still));
        assertThat(collector.events("a1", "web").orElseThrow().high()).isEqualTo(6);

        // figures that moved are read at once
        v2Dir(7);
        collector.update(tick(CgroupVersion.V2, dir, 20 * SECOND));
        assertThat(collector.events("a1", "web").orElseThrow().high()).isEqualTo(7);
    }

    @Test
    void aRiseOfHighAboveTheBurstIsToldOncePerQuietPeriod() throws IOException {
        TaskMemoryEventsCollector collector = collector(MetricsNaming.PROMETHEUS, 100);
        collector.update(tick(CgroupVersion.V2, v2Dir(1_000), SECOND));
        assertThat(told).as("the first read has nothing to compare with").isEmpty();

        collector.update(tick(CgroupVersion.V2, v2Dir(1_100), 2 * SECOND));
        assertThat(told).as("a rise of exactly the burst is not one").isEmpty();

        collector.update(tick(CgroupVersion.V2, v2Dir(1_500), 3 * SECOND));
        assertThat(told).singleElement().satisfies(t -> {
            assertThat(t.highRise()).isEqualTo(400);
            assertThat(t.over()).isEqualTo(Duration.ofSeconds(1));
            assertThat(t.events().high()).isEqualTo(1_500);
            assertThat(t.events().oomKill()).isEqualTo(1);
            assertThat(t.suppressedBursts()).isZero();
            assertThat(t.at().getEpochSecond()).isEqualTo(3);
        });

        // two more bursts within the quiet period: counted, not told
        collector.update(tick(CgroupVersion.V2, v2Dir(2_000), 4 * SECOND));
        collector.update(tick(CgroupVersion.V2, v2Dir(2_500), 5 * SECOND));
        assertThat(told).hasSize(1);

        // the same samples republished (an unregister) are not read again
        collector.update(tick(CgroupVersion.V2, v2Dir(9_000), 5 * SECOND));
        assertThat(collector.events("a1", "web")).hasValueSatisfying(e -> assertThat(e.high()).isEqualTo(2_500));

        long afterQuiet = 3 * SECOND + QUIET.toNanos();
        collector.update(tick(CgroupVersion.V2, v2Dir(2_600), afterQuiet - SECOND));
        collector.update(tick(CgroupVersion.V2, v2Dir(3_000), afterQuiet));
        assertThat(told).hasSize(2);
        assertThat(told.get(1).suppressedBursts()).isEqualTo(2);
        assertThat(told.get(1).highRise()).isEqualTo(400);
    }

    @Test
    void anUnwatchedTaskIsNotToldAndAGoneTaskIsDropped() throws IOException {
        TaskMemoryEventsCollector collector = collector(MetricsNaming.PROMETHEUS, 0);
        collector.unwatch("a1", "web");
        collector.update(tick(CgroupVersion.V2, v2Dir(1), SECOND));
        collector.update(tick(CgroupVersion.V2, v2Dir(2), 2 * SECOND));
        assertThat(told).isEmpty();
        assertThat(registry.scrape()).contains("berth_task_memory_events_total");

        collector.update(Map.of());

        assertThat(collector.events("a1", "web")).isEmpty();
        assertThat(registry.scrape()).doesNotContain("berth_task_memory_events");
    }

    @Test
    void prometheusNamingHasOneCounterPerEventAndIsPromtoolClean() throws Exception {
        TaskMemoryEventsCollector collector = collector(MetricsNaming.PROMETHEUS, 100);
        Path dir = v2Dir(7);
        collector.update(tick(CgroupVersion.V2, dir, SECOND));

        String scrape = registry.scrape();
        String labels = "alloc_id=\"a1\",event=\"%s\",job=\"job\",namespace=\"default\",task=\"web\",task_group=\"grp\"";
        assertThat(scrape).contains("berth_task_memory_events_total{" + labels.formatted("high") + "} 7.0")
                .contains("berth_task_memory_events_total{" + labels.formatted("oom_kill") + "} 1.0")
                .contains("berth_task_memory_events_total{" + labels.formatted("max") + "} 2.0")
                .contains("berth_task_memory_events_total{" + labels.formatted("low") + "} 0.0")
                .doesNotContain("oom_group_kill").doesNotContain("under_oom");
        Promtool.Result lint = Promtool.checkMetrics(scrape);
        assertThat(lint.exitCode()).as(lint.output()).isZero();

        Files.writeString(dir.resolve("memory.events"), "low 0\nhigh 70\nmax 2\noom 1\noom_kill 1\noom_group_kill 0\n");
        collector.update(tick(CgroupVersion.V2, dir, 2 * SECOND));
        assertThat(registry.scrape()).contains("berth_task_memory_events_total{" + labels.formatted("high") + "} 70.0");
    }

    @Test
    void nomadNamingAndCgroupV1() throws Exception {
        TaskMemoryEventsCollector collector = collector(MetricsNaming.NOMAD, 100);
        Path dir = Files.createDirectories(tmp.resolve("v1"));
        Files.writeString(dir.resolve("memory.failcnt"), "12\n");
        Files.writeString(dir.resolve("memory.oom_control"), "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n");
        collector.update(tick(CgroupVersion.V1, dir, SECOND));

        assertThat(collector.events("a1", "web")).hasValueSatisfying(e -> {
            assertThat(e.failcnt()).isEqualTo(12);
            assertThat(e.oomKill()).isEqualTo(1);
            assertThat(e.has(TaskMemoryEvents.Event.HIGH)).isFalse();
            assertThat(e.has(TaskMemoryEvents.Event.MEMSW_FAILCNT)).isFalse();
        });
        String scrape = registry.scrape();
        assertThat(scrape.lines().filter(l -> l.startsWith("nomad_client_allocs_memory_events{") && l.contains("event=\"failcnt\""))
                .findFirst().orElseThrow()).contains("host=\"vm\"").endsWith(" 12.0");
        assertThat(scrape).contains("nomad_client_allocs_memory_under_oom{").doesNotContain("berth_task_memory_events")
                .doesNotContain("event=\"high\"");
        Promtool.Result lint = Promtool.checkMetrics(scrape);
        assertThat(lint.exitCode()).as(lint.output()).isZero();
    }
}
