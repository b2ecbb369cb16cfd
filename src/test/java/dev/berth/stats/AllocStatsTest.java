package dev.berth.stats;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.berth.host.cgroup.CgroupVersion;

import static org.assertj.core.api.Assertions.assertThat;

class AllocStatsTest {

    @Test
    void sumsEveryFieldIncludingPercentUnitesMeasuredAndTakesTheLatestTimestamp() {
        TaskStatsSnapshot web = snapshot("web", 100, Set.of(TaskMemoryField.SWAP), 50.0, 2_000);
        TaskStatsSnapshot log = snapshot("log", 20, Set.of(TaskMemoryField.RSS), 25.0, 3_000);

        AllocStats stats = AllocStats.of(List.of(web, log), null);

        assertThat(stats.usage().memory().rss()).isEqualTo(120);
        assertThat(stats.usage().cpu().percent()).isEqualTo(75.0);
        assertThat(stats.timestampNanos()).isEqualTo(3_000);
        assertThat(stats.tasks()).containsOnlyKeys("web", "log");
        // first-seen order, walking the tasks by name so the order is stable between requests
        assertThat(stats.memoryMeasured()).containsExactly("RSS", "Swap");
        assertThat(stats.cpuMeasured()).containsExactly("Percent");
    }

    @Test
    void taskFilterKeepsOneTaskAndAnUnknownNameGivesNoTasks() {
        List<TaskStatsSnapshot> snapshots = List.of(snapshot("web", 100, Set.of(), 1, 1), snapshot("log", 20, Set.of(), 1, 2));

        assertThat(AllocStats.of(snapshots, "web").tasks()).containsOnlyKeys("web");
        assertThat(AllocStats.of(snapshots, "web").usage().memory().rss()).isEqualTo(100);
        AllocStats none = AllocStats.of(snapshots, "nope");
        assertThat(none.tasks()).isEmpty();
        assertThat(none.timestampNanos()).isZero();
        assertThat(none.usage()).isEqualTo(TaskResourceUsage.NONE);
    }

    private static TaskStatsSnapshot snapshot(String task, long rss, Set<TaskMemoryField> extra, double percent, long at) {
        java.util.EnumSet<TaskMemoryField> fields = java.util.EnumSet.of(TaskMemoryField.RSS);
        fields.addAll(extra);
        TaskStatsTarget target = new TaskStatsTarget("a1", task, "j", "g", "default", CgroupVersion.NONE, Map.of(), 1, 0);
        return new TaskStatsSnapshot(target, at, new TaskResourceUsage(new TaskMemoryStats(rss, 0, 0, 0, 0, 0, 0, 0, 0, fields),
                new TaskCpuStats(0, 0, 0, percent, 0, 0, 0, 0, 0, Set.of(TaskCpuField.PERCENT))), Map.of());
    }
}
