package dev.berth.stats;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;

import dev.berth.config.BerthMetric;
import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricScope;
import dev.berth.config.MetricsNaming;
import dev.berth.stats.TaskMemoryEvents.Event;
import dev.berth.stats.TaskStatsTarget.TaskKey;

/**
 * The memory event counters as meters, one series per task and measured counter, label {@code event}
 * ({@link Event#label()}): {@code berth_task_memory_events_total} (a counter, Prometheus naming) and
 * {@code nomad_client_allocs_memory_events} (a gauge of the same cumulative count, Nomad naming; Nomad itself reads no
 * memory events). v1's {@code under_oom} is a state: {@code berth_task_memory_under_oom} /
 * {@code nomad_client_allocs_memory_under_oom} (1 while the cgroup is out of memory). Series always carry
 * {@code alloc_id}, as the pressure series do. Meters are registered and removed only when a task comes, goes, or
 * starts or stops measuring a counter; a scrape reads the collector's latest figures.
 */
public class TaskMemoryEventsMetrics {

    static final BerthMetric EVENTS = BerthMetric.prometheusOnly("berth.task.memory.events",
            "Memory events of the task's cgroup (v2 memory.events; v1 failcnt and oom_control's oom_kill), by event");
    static final BerthMetric EVENTS_NOMAD = BerthMetric.nomadOnly("nomad.client.allocs.memory.events");
    static final BerthMetric UNDER_OOM = BerthMetric.of("berth.task.memory.under_oom", "nomad.client.allocs.memory.under_oom",
            "1 while the task's cgroup v1 is out of memory (memory.oom_control under_oom)");

    private final BerthMetrics metrics;
    private final Map<MeterKey, Meter> meters = new HashMap<>();
    private Supplier<Map<TaskKey, TaskMemoryEvents>> latest = Map::of;

    public TaskMemoryEventsMetrics(BerthMetrics metrics) {
        this.metrics = metrics;
    }

    /** Where the meters read their values: the collector's latest figures. */
    void readFrom(Supplier<Map<TaskKey, TaskMemoryEvents>> latest) {
        this.latest = latest;
    }

    /** Registers a meter for every measured counter of every task in {@code events}, removes the others. */
    synchronized void reconcile(Map<TaskKey, TaskMemoryEvents> events, Map<TaskKey, TaskStatsTarget> targets) {
        Set<MeterKey> wanted = new HashSet<>();
        events.forEach((key, counters) -> {
            for (Event event : Event.values()) {
                if (counters.has(event)) {
                    wanted.add(new MeterKey(key, event));
                }
            }
        });
        meters.entrySet().removeIf(entry -> {
            boolean gone = !wanted.contains(entry.getKey());
            if (gone) {
                metrics.remove(entry.getValue());
            }
            return gone;
        });
        for (MeterKey key : wanted) {
            if (meters.containsKey(key)) {
                continue;
            }
            TaskStatsTarget target = targets.get(key.task());
            Tags tags = Tags.of("alloc_id", target.allocId(), "job", target.job(), "namespace", target.namespace(),
                    "task", target.task(), "task_group", target.taskGroup());
            ToDoubleFunction<TaskMemoryEventsMetrics> value = self -> {
                TaskMemoryEvents now = self.latest.get().get(key.task());
                return now == null || !now.has(key.event()) ? Double.NaN : now.count(key.event());
            };
            Optional<? extends Meter> meter;
            if (key.event() == Event.UNDER_OOM) {
                meter = metrics.gauge(UNDER_OOM, MetricScope.TASK, tags, this, value);
            } else if (metrics.naming() == MetricsNaming.NOMAD) {
                meter = metrics.gauge(EVENTS_NOMAD, MetricScope.TASK, tags.and("event", key.event().label()), this, value);
            } else {
                meter = metrics.functionCounter(EVENTS, MetricScope.TASK, tags.and("event", key.event().label()), this, value);
            }
            meter.ifPresent(m -> meters.put(key, m));
        }
    }

    /** One series: a task and one of its counters. */
    private record MeterKey(TaskKey task, Event event) {
    }
}
