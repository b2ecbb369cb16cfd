package dev.berth.stats;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToDoubleFunction;

import dev.berth.config.BerthMetric;
import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricScope;
import dev.berth.config.MetricsNaming;
import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.host.cgroup.TaskCgroup;
import dev.berth.stats.TaskStatsTarget.TaskKey;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pressure-stall figures of cgroup v2 tasks, read right after each task-stats tick for the tasks that tick sampled
 * (three small files per task; nothing at all on cgroup v1, which has no PSI), kept beside the stats snapshots rather
 * than inside them so the stats readers stay as they are. Published as meters per task, resource
 * ({@code cpu}/{@code memory}/{@code io}) and stall kind ({@code some}/{@code full}):
 * {@code berth_task_pressure_avg10_ratio} and {@code berth_task_pressure_stalled_seconds_total} (Prometheus naming),
 * {@code nomad_client_allocs_pressure_avg10} (percent) and {@code nomad_client_allocs_pressure_stalled_seconds} (Nomad
 * naming; Nomad itself has no PSI metrics). Series always carry {@code alloc_id}: stall shares do not add up.
 */
public class TaskPressureCollector {

    private static final Logger log = LoggerFactory.getLogger(TaskPressureCollector.class);

    static final BerthMetric AVG10 = BerthMetric.of("berth.task.pressure.avg10", "nomad.client.allocs.pressure.avg10",
            "Share of the last 10 s in which some (or all) of the task's work stalled on the resource").percentAsRatio();
    static final BerthMetric STALLED = BerthMetric.prometheusOnly("berth.task.pressure.stalled",
            "Time some (or all) of the task's work stalled on the resource").withBaseUnit("seconds");
    static final BerthMetric TOTAL_SECONDS = BerthMetric.nomadOnly("nomad.client.allocs.pressure.stalled_seconds");

    private final BerthMetrics metrics;
    /** The agent's descriptor budget: the pressure files are kept open out of it, as the stats readers' are. */
    private final DescriptorBudget budget;
    private final Map<TaskKey, Long> sampledAt = new HashMap<>();
    /** The v2 tasks' kept-open pressure files; closed when their task leaves the snapshots. */
    private final Map<TaskKey, TaskPressureFiles> files = new HashMap<>();
    private final Map<MeterKey, Meter> meters = new HashMap<>();
    private volatile Map<TaskKey, TaskPressure> latest = Map.of();

    public TaskPressureCollector(BerthMetrics metrics, DescriptorBudget budget) {
        this.metrics = metrics;
        this.budget = budget;
    }

    /** Follows the collector: reads after each tick, drops a task's figures and series when it is unregistered. */
    public void bind(TaskStatsCollector collector) {
        collector.addListener(this::update);
    }

    /** The latest pressure of a task; empty on cgroup v1, without PSI, or before its first sample. */
    public Optional<TaskPressure> pressure(String allocId, String task) {
        return Optional.ofNullable(latest.get(new TaskKey(allocId, task)));
    }

    synchronized void update(Map<TaskKey, TaskStatsSnapshot> snapshots) {
        if (latest.isEmpty() && files.isEmpty() && sampledAt.isEmpty() && meters.isEmpty() && noV2Task(snapshots)) {
            return; // nothing kept and nothing to read (cgroup v1): a tick costs one pass over the slots
        }
        Map<TaskKey, TaskPressure> next = new HashMap<>();
        Map<TaskKey, TaskStatsTarget> targets = new HashMap<>();
        sampledAt.keySet().retainAll(snapshots.keySet());
        if (!files.isEmpty()) {
            files.entrySet().removeIf(entry -> {
                boolean gone = !snapshots.containsKey(entry.getKey());
                if (gone) {
                    entry.getValue().close();
                }
                return gone;
            });
        }
        for (Map.Entry<TaskKey, TaskStatsSnapshot> entry : snapshots.entrySet()) {
            TaskStatsSnapshot snapshot = entry.getValue();
            TaskStatsTarget target = snapshot.target();
            if (target.cgroupVersion() != CgroupVersion.V2 || target.cgroupDirs().get(TaskCgroup.UNIFIED) == null) {
                continue;
            }
            TaskPressure previous = latest.get(entry.getKey());
            Long at = sampledAt.put(entry.getKey(), snapshot.timestampNanos());
            // an unregister republishes the same samples: read again only after a new tick
            TaskPressure pressure = previous != null && at != null && at == snapshot.timestampNanos() ? previous
                    : read(filesOf(entry.getKey(), target.cgroupDirs().get(TaskCgroup.UNIFIED)));
            if (pressure != null && !pressure.isEmpty()) {
                next.put(entry.getKey(), pressure);
                targets.put(entry.getKey(), target);
            }
        }
        latest = Map.copyOf(next);
        reconcile(targets);
    }

    /** Whether no snapshot is of a cgroup v2 task (a published map's values are its array: no entry objects). */
    private static boolean noV2Task(Map<TaskKey, TaskStatsSnapshot> snapshots) {
        for (TaskStatsSnapshot snapshot : snapshots.values()) {
            if (snapshot.target().cgroupVersion() == CgroupVersion.V2) {
                return false;
            }
        }
        return true;
    }

    /** The task's kept-open files, opened afresh when its cgroup directory changed (a re-registered task). */
    private TaskPressureFiles filesOf(TaskKey key, Path dir) {
        TaskPressureFiles kept = files.get(key);
        if (kept != null && kept.dir().equals(dir)) {
            return kept;
        }
        if (kept != null) {
            kept.close();
        }
        TaskPressureFiles opened = new TaskPressureFiles(dir, budget);
        files.put(key, opened);
        return opened;
    }

    private static TaskPressure read(TaskPressureFiles files) {
        try {
            return files.read();
        } catch (IOException | RuntimeException e) {
            log.debug("Cannot read pressure files in {}: {}", files.dir(), e.toString());
            return null;
        }
    }

    private void reconcile(Map<TaskKey, TaskStatsTarget> targets) {
        Set<MeterKey> wanted = new HashSet<>();
        latest.forEach((key, pressure) -> {
            for (String resource : List.of("cpu", "memory", "io")) {
                TaskPressure.Pressure p = of(pressure, resource);
                if (p == null) {
                    continue;
                }
                for (String kind : p.full() == null ? List.of("some") : List.of("some", "full")) {
                    wanted.add(new MeterKey(key, resource, kind, false));
                    wanted.add(new MeterKey(key, resource, kind, true));
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
                    "task", target.task(), "task_group", target.taskGroup(), "resource", key.resource(), "stall", key.kind());
            Optional<? extends Meter> meter;
            if (!key.cumulative()) {
                meter = metrics.gauge(AVG10, MetricScope.TASK, tags, this, value(key, TaskPressure.Line::avg10));
            } else if (metrics.naming() == MetricsNaming.NOMAD) {
                meter = metrics.gauge(TOTAL_SECONDS, MetricScope.TASK, tags, this, value(key, l -> l.totalMicros() / 1e6));
            } else {
                meter = metrics.functionCounter(STALLED, MetricScope.TASK, tags, this, value(key, l -> l.totalMicros() / 1e6));
            }
            meter.ifPresent(m -> meters.put(key, m));
        }
    }

    private static ToDoubleFunction<TaskPressureCollector> value(MeterKey key, ToDoubleFunction<TaskPressure.Line> field) {
        return self -> {
            TaskPressure pressure = self.latest.get(key.task());
            TaskPressure.Pressure p = pressure == null ? null : of(pressure, key.resource());
            TaskPressure.Line line = p == null ? null : "full".equals(key.kind()) ? p.full() : p.some();
            return line == null ? Double.NaN : field.applyAsDouble(line);
        };
    }

    private static TaskPressure.Pressure of(TaskPressure pressure, String resource) {
        return switch (resource) {
            case "cpu" -> pressure.cpu();
            case "memory" -> pressure.memory();
            default -> pressure.io();
        };
    }

    /** One series: a task, a resource, a stall kind, and whether it is the cumulative total or the 10 s share. */
    private record MeterKey(TaskKey task, String resource, String kind, boolean cumulative) {
    }
}
