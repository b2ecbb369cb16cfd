package dev.berth.api;

import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.stats.TaskMemoryEvents;
import dev.berth.stats.TaskResourceUsage;
import dev.berth.stats.TaskStatsSnapshot;
import dev.berth.stats.TaskStatsTarget;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code MemoryEvents}, Berth's field beside Nomad's in a task's stats: the counters its cgroup keeps, each only when
 * measured, and no field at all for a task without them (Nomad's shape).
 */
class AllocStatsMemoryEventsJsonTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TaskStatsSnapshot SNAPSHOT = new TaskStatsSnapshot(new TaskStatsTarget("a1", "web", "j", "g", "default",
            CgroupVersion.V2, Map.of("unified", java.nio.file.Path.of("/x")), 0, 0), 7, TaskResourceUsage.NONE, Map.of());

    private static int mask(TaskMemoryEvents.Event... events) {
        int mask = 0;
        for (TaskMemoryEvents.Event event : events) {
            mask |= 1 << event.ordinal();
        }
        return mask;
    }

    @Test
    void v2CountersBesideNomadsFields() {
        TaskMemoryEvents v2 = new TaskMemoryEvents(0, 18446, 3, 1, 1, 0, 0, false, mask(TaskMemoryEvents.Event.LOW,
                TaskMemoryEvents.Event.HIGH, TaskMemoryEvents.Event.MAX, TaskMemoryEvents.Event.OOM, TaskMemoryEvents.Event.OOM_KILL));
        String json = JSON.writeValueAsString(AllocStatsDtos.TaskResourceUsageDto.of(SNAPSHOT, null, v2));
        assertThat(json).contains("\"MemoryEvents\":{\"Low\":0,\"High\":18446,\"Max\":3,\"Oom\":1,\"OomKill\":1}")
                .contains("\"ResourceUsage\":").doesNotContain("Pressure");
    }

    @Test
    void v1CountersAndNoFieldWithoutAny() {
        TaskMemoryEvents v1 = new TaskMemoryEvents(0, 0, 0, 0, 1, 0, 0, false, mask(TaskMemoryEvents.Event.FAILCNT,
                TaskMemoryEvents.Event.OOM_KILL, TaskMemoryEvents.Event.UNDER_OOM));
        assertThat(JSON.writeValueAsString(AllocStatsDtos.TaskResourceUsageDto.of(SNAPSHOT, null, v1)))
                .contains("\"MemoryEvents\":{\"OomKill\":1,\"Failcnt\":0,\"UnderOom\":false}");
        assertThat(JSON.writeValueAsString(AllocStatsDtos.TaskResourceUsageDto.of(SNAPSHOT, null, TaskMemoryEvents.NONE)))
                .doesNotContain("MemoryEvents");
        assertThat(JSON.writeValueAsString(AllocStatsDtos.TaskResourceUsageDto.of(SNAPSHOT, null, null)))
                .doesNotContain("MemoryEvents");
    }
}
