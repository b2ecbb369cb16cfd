package dev.berth.stats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricsNaming;
import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.host.cgroup.TaskCgroup;
import dev.berth.stats.TaskStatsTarget.TaskKey;
import dev.berth.support.Promtool;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * PSI from cgroup v2 pressure files. The fixtures follow the kernel's format (Documentation/accounting/psi.rst); this
 * build machine is cgroup v1, which has no PSI at all.
 */
class TaskPressureTest {

    static final Path V2 = Path.of("src/test/resources/cgroupv2/task");
    static final Path V2_OLD_KERNEL = Path.of("src/test/resources/cgroupv2/old-kernel");
    static final Path V1 = Path.of("src/test/resources/cgroupv1/task");

    @TempDir
    Path tmp;

    @Test
    void readsSomeAndFullOfTheThreeResources() throws IOException {
        TaskPressure p = TaskPressure.read(V2);
        assertThat(p.cpu().some()).isEqualTo(new TaskPressure.Line(1.52, 0.87, 0.21, 4_861_227));
        assertThat(p.memory().full()).isEqualTo(new TaskPressure.Line(10.25, 5.01, 1.22, 31_554_020));
        assertThat(p.io().some().totalMicros()).isEqualTo(118_342);
    }

    @Test
    void anOlderKernelHasNoCpuFullLineAndCgroupV1HasNothing() throws IOException {
        TaskPressure old = TaskPressure.read(V2_OLD_KERNEL);
        assertThat(old.cpu().full()).isNull();
        assertThat(old.memory()).isNull();
        assertThat(TaskPressure.read(V1).isEmpty()).isTrue();
        assertThatThrownBy(() -> TaskPressure.parse("garbage")).isInstanceOf(IllegalArgumentException.class);
    }

    private Map<TaskKey, TaskStatsSnapshot> snapshotOf(Path dir, long ts) {
        TaskStatsTarget target = new TaskStatsTarget("a1", "web", "job", "grp", "default", CgroupVersion.V2,
                Map.of(TaskCgroup.UNIFIED, dir), 0, 0);
        Map<TaskKey, TaskStatsSnapshot> map = new HashMap<>();
        map.put(target.key(), new TaskStatsSnapshot(target, ts, TaskResourceUsage.NONE, Map.of()));
        return map;
    }

    private Path copyOfFixture() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("cg"));
        try (Stream<Path> files = Files.list(V2)) {
            for (Path f : files.toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        return dir;
    }

    @Test
    void prometheusNamingSeriesArePromtoolCleanAndGoWithTheTask() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        TaskPressureCollector collector = new TaskPressureCollector(new BerthMetrics(registry, MetricsNaming.PROMETHEUS, "vm", "id", "dc1", ""), DescriptorBudget.ofProcessLimit());
        Path dir = copyOfFixture();

        collector.update(snapshotOf(dir, 1));

        assertThat(collector.pressure("a1", "web")).hasValueSatisfying(p -> assertThat(p.memory().some().avg10()).isEqualTo(12.40));
        String scrape = registry.scrape();
        assertThat(scrape).contains("berth_task_pressure_avg10_ratio{alloc_id=\"a1\",job=\"job\",namespace=\"default\",resource=\"memory\",stall=\"some\",task=\"web\",task_group=\"grp\"} 0.124")
                .contains("berth_task_pressure_stalled_seconds_total{alloc_id=\"a1\",job=\"job\",namespace=\"default\",resource=\"cpu\",stall=\"some\",task=\"web\",task_group=\"grp\"} 4.861227");
        Promtool.Result lint = Promtool.checkMetrics(scrape);
        assertThat(lint.exitCode()).as(lint.output()).isZero();

        // a new tick re-reads the files
        Files.writeString(dir.resolve("memory.pressure"), "some avg10=50.00 avg60=1.00 avg300=0.50 total=40000000\n"
                + "full avg10=40.00 avg60=1.00 avg300=0.50 total=32000000\n");
        collector.update(snapshotOf(dir, 2));
        assertThat(registry.scrape()).contains("resource=\"memory\",stall=\"some\",task=\"web\",task_group=\"grp\"} 0.5");

        collector.update(Map.of());
        assertThat(collector.pressure("a1", "web")).isEmpty();
        assertThat(registry.scrape()).doesNotContain("berth_task_pressure");
    }

    @Test
    void nomadNamingHasPercentAndSeconds() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        TaskPressureCollector collector = new TaskPressureCollector(new BerthMetrics(registry, MetricsNaming.NOMAD, "vm", "id", "dc1", ""), DescriptorBudget.ofProcessLimit());
        collector.update(snapshotOf(copyOfFixture(), 1));
        String scrape = registry.scrape();
        assertThat(scrape).contains("nomad_client_allocs_pressure_avg10{").contains("resource=\"io\",stall=\"full\"")
                .contains("nomad_client_allocs_pressure_stalled_seconds{").doesNotContain("berth_task_pressure");
        assertThat(scrape.lines().filter(l -> l.startsWith("nomad_client_allocs_pressure_avg10{") && l.contains("resource=\"memory\",stall=\"some\""))
                .findFirst().orElseThrow()).endsWith(" 12.4");
        Promtool.Result lint = Promtool.checkMetrics(scrape);
        assertThat(lint.exitCode()).as(lint.output()).isZero();
    }

    @Test
    void cgroupV1TasksGetNoPressure() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        TaskPressureCollector collector = new TaskPressureCollector(new BerthMetrics(registry, MetricsNaming.PROMETHEUS, "vm", "id", "dc1", ""), DescriptorBudget.ofProcessLimit());
        TaskStatsTarget v1 = new TaskStatsTarget("a2", "db", "job", "grp", "default", CgroupVersion.V1, Map.of("memory", V1), 0, 0);
        collector.update(Map.of(v1.key(), new TaskStatsSnapshot(v1, 1, TaskResourceUsage.NONE, Map.of())));
        assertThat(collector.pressure("a2", "db")).isEmpty();
        assertThat(registry.scrape()).doesNotContain("pressure");
    }

    @Test
    void aV2TaskThatLeavesIsDroppedWhenOnlyV1TasksRemain() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        TaskPressureCollector collector = new TaskPressureCollector(new BerthMetrics(registry, MetricsNaming.PROMETHEUS, "vm", "id", "dc1", ""), DescriptorBudget.ofProcessLimit());
        TaskStatsTarget v1 = new TaskStatsTarget("a2", "db", "job", "grp", "default", CgroupVersion.V1, Map.of("memory", V1), 0, 0);
        Map<TaskKey, TaskStatsSnapshot> both = snapshotOf(copyOfFixture(), 1);
        both.put(v1.key(), new TaskStatsSnapshot(v1, 1, TaskResourceUsage.NONE, Map.of()));
        collector.update(both);
        assertThat(collector.pressure("a1", "web")).isPresent();

        // the v1 tasks alone have nothing to read, but what the v2 task left must still go
        collector.update(Map.of(v1.key(), new TaskStatsSnapshot(v1, 2, TaskResourceUsage.NONE, Map.of())));

        assertThat(collector.pressure("a1", "web")).isEmpty();
        assertThat(registry.scrape()).doesNotContain("pressure");
    }
}
