package dev.berth.stats;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;

import dev.berth.config.BerthMetric;
import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricScope;
import dev.berth.config.MetricsNaming;
import dev.berth.stats.TaskStatsTarget.TaskKey;

/**
 * Per-task meters drawn from the collector's snapshots (a scrape never reads the kernel), registered through
 * {@link BerthMetrics} so names and the {@code host} label follow {@code berth.metrics.naming}. After every tick the set
 * of meters is reconciled with the snapshot map: new tasks get meters, and the series of an unregistered task are
 * removed at once.
 *
 * <p>{@code prometheus} naming: {@code berth_task_*} in base units (only what is measured), cumulative CPU time as
 * {@code _total} counters. {@code nomad} naming: Nomad's {@code nomad_client_allocs_*} gauges; a memory gauge is only
 * published when its value is non-zero or it is {@code Measured} (Nomad §3.3), the CPU gauges always. With
 * {@code allocation-labels=false} the {@code alloc_id} label is dropped and tasks of the same job/group/task are summed.
 */
public class TaskStatsMetrics {

    private static final String SECONDS = "seconds";
    static final BerthMetric CPU_TOTAL_TICKS_COUNT = BerthMetric.nomadOnly("nomad.client.allocs.cpu.total_ticks_count");

    private final TaskStatsCollector collector;
    private final BerthMetrics metrics;
    private final boolean allocationLabels;
    private final List<Def> defs;
    private final Map<MeterKey, Meter> meters = new HashMap<>();
    /** Nomad's {@code cpu.total_ticks_count}: incremented by TotalTicks once per new sample, per label group. */
    private final Map<Tags, Counter> ticksCounters = new HashMap<>();
    private final Map<TaskKey, Long> countedTimestamps = new HashMap<>();
    private volatile Map<Tags, TaskResourceUsage> groups = Map.of();

    public TaskStatsMetrics(TaskStatsCollector collector, BerthMetrics metrics, boolean allocationLabels) {
        this.collector = collector;
        this.metrics = metrics;
        this.allocationLabels = allocationLabels;
        this.defs = metrics.naming() == MetricsNaming.NOMAD ? nomadDefs() : prometheusDefs();
    }

    /** Starts following the collector: meters are reconciled after every tick and every unregister. */
    public void bind() {
        collector.addListener(this::reconcile);
        reconcile(collector.snapshots());
    }

    synchronized void reconcile(Map<TaskKey, TaskStatsSnapshot> snapshots) {
        Map<Tags, TaskResourceUsage> next = new LinkedHashMap<>();
        for (TaskStatsSnapshot snapshot : snapshots.values()) {
            next.merge(tags(snapshot.target()), snapshot.usage(), TaskResourceUsage::plus);
        }
        groups = next;
        if (metrics.naming() == MetricsNaming.NOMAD) {
            countTicks(snapshots, next);
        }
        // Keys are (definition, label group) pairs, compared without rendering names or tags: this runs every tick
        // for every series (14k at 1,000 allocations), so it must not build strings.
        Set<MeterKey> wanted = new HashSet<>();
        next.forEach((tags, usage) -> {
            for (Def def : defs) {
                if (def.publish().test(usage)) {
                    wanted.add(new MeterKey(def, tags));
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
            if (!meters.containsKey(key)) {
                Def def = key.def();
                Tags all = def.extraTags() == null ? key.group() : key.group().and(def.extraTags());
                register(def, key.group(), all).ifPresent(meter -> meters.put(key, meter));
            }
        }
    }

    /** One series: a meter definition (compared by identity of the fixed definitions) and its label group. */
    private record MeterKey(Def def, Tags group) {
    }

    private void countTicks(Map<TaskKey, TaskStatsSnapshot> snapshots, Map<Tags, TaskResourceUsage> next) {
        countedTimestamps.keySet().retainAll(snapshots.keySet());
        for (Map.Entry<TaskKey, TaskStatsSnapshot> entry : snapshots.entrySet()) {
            TaskStatsSnapshot snapshot = entry.getValue();
            Long counted = countedTimestamps.put(entry.getKey(), snapshot.timestampNanos());
            if (counted == null || counted != snapshot.timestampNanos()) {
                ticksCounters.computeIfAbsent(tags(snapshot.target()), t -> metrics.counter(CPU_TOTAL_TICKS_COUNT, MetricScope.TASK, t))
                        .increment(snapshot.usage().cpu().totalTicks());
            }
        }
        ticksCounters.entrySet().removeIf(entry -> {
            boolean gone = !next.containsKey(entry.getKey());
            if (gone) {
                metrics.remove(entry.getValue());
            }
            return gone;
        });
    }

    private Optional<? extends Meter> register(Def def, Tags group, Tags tags) {
        ToDoubleFunction<TaskStatsMetrics> value = self -> {
            TaskResourceUsage usage = self.groups.get(group);
            return usage == null ? Double.NaN : def.value().applyAsDouble(usage);
        };
        return def.counter()
                ? metrics.functionCounter(def.metric(), MetricScope.TASK, tags, this, value)
                : metrics.gauge(def.metric(), MetricScope.TASK, tags, this, value);
    }

    private Tags tags(TaskStatsTarget target) {
        Tags tags = Tags.of("job", target.job(), "namespace", target.namespace(), "task", target.task(), "task_group", target.taskGroup());
        return allocationLabels ? tags.and("alloc_id", target.allocId()) : tags;
    }

    /** One meter: how to compute it from a (summed) usage, and when it exists. */
    private record Def(BerthMetric metric, boolean counter, Tags extraTags, ToDoubleFunction<TaskResourceUsage> value,
            Predicate<TaskResourceUsage> publish) {
    }

    private static List<Def> prometheusDefs() {
        List<Def> defs = new ArrayList<>();
        memory(defs, "working_set", TaskMemoryField.WORKING_SET, "Memory usage minus inactive file cache (what an OOM decision sees)");
        memory(defs, "rss", TaskMemoryField.RSS, "Anonymous memory (v1 rss, v2 anon)");
        memory(defs, "usage", TaskMemoryField.USAGE, "Memory usage including page cache");
        memory(defs, "cache", TaskMemoryField.CACHE, "Page cache");
        memory(defs, "swap", TaskMemoryField.SWAP, "Swap as Nomad reports it (memory+swap on v1 and v2)");
        memory(defs, "mapped_file", TaskMemoryField.MAPPED_FILE, "Memory-mapped files");
        memory(defs, "max_usage", TaskMemoryField.MAX_USAGE, "Peak memory usage");
        memory(defs, "kernel_usage", TaskMemoryField.KERNEL_USAGE, "Kernel memory (v1 kmem)");
        memory(defs, "kernel_max_usage", TaskMemoryField.KERNEL_MAX_USAGE, "Peak kernel memory (v1 kmem)");
        defs.add(cpuCounter("berth.task.cpu.usage", "CPU time consumed", null, u -> u.cpu().totalNs() / 1e9, TaskCpuField.PERCENT));
        defs.add(cpuCounter("berth.task.cpu", "CPU time consumed by mode", Tags.of("mode", "user"), u -> u.cpu().userNs() / 1e9,
                TaskCpuField.USER_MODE));
        defs.add(cpuCounter("berth.task.cpu", "CPU time consumed by mode", Tags.of("mode", "system"), u -> u.cpu().systemNs() / 1e9,
                TaskCpuField.SYSTEM_MODE));
        defs.add(new Def(BerthMetric.prometheusOnly("berth.task.cpu.throttled.periods", "CFS periods in which the task was throttled"),
                true, null, u -> u.cpu().throttledPeriods(), u -> u.cpu().isMeasured(TaskCpuField.THROTTLED_PERIODS)));
        defs.add(cpuCounter("berth.task.cpu.throttled", "Time the task was throttled", null, u -> u.cpu().throttledTime() / 1e9,
                TaskCpuField.THROTTLED_TIME));
        return List.copyOf(defs);
    }

    private static void memory(List<Def> defs, String name, TaskMemoryField field, String description) {
        BerthMetric metric = BerthMetric.prometheusOnly("berth.task.memory." + name, description).withBaseUnit(BaseUnits.BYTES);
        defs.add(new Def(metric, false, null, u -> u.memory().get(field), u -> u.memory().isMeasured(field)));
    }

    private static Def cpuCounter(String name, String description, Tags extra, ToDoubleFunction<TaskResourceUsage> value,
            TaskCpuField field) {
        return new Def(BerthMetric.prometheusOnly(name, description).withBaseUnit(SECONDS), true, extra, value,
                u -> u.cpu().isMeasured(field));
    }

    private static List<Def> nomadDefs() {
        List<Def> defs = new ArrayList<>();
        Map<String, TaskMemoryField> memory = new LinkedHashMap<>();
        memory.put("rss", TaskMemoryField.RSS);
        memory.put("cache", TaskMemoryField.CACHE);
        memory.put("swap", TaskMemoryField.SWAP);
        memory.put("mapped_file", TaskMemoryField.MAPPED_FILE);
        memory.put("usage", TaskMemoryField.USAGE);
        memory.put("max_usage", TaskMemoryField.MAX_USAGE);
        memory.put("kernel_usage", TaskMemoryField.KERNEL_USAGE);
        memory.put("kernel_max_usage", TaskMemoryField.KERNEL_MAX_USAGE);
        memory.forEach((name, field) -> defs.add(nomad("memory." + name,
                u -> u.memory().get(field), u -> u.memory().get(field) != 0 || u.memory().isMeasured(field))));
        defs.add(nomad("cpu.total_percent", u -> u.cpu().percent(), u -> true));
        defs.add(nomad("cpu.system", u -> u.cpu().systemMode(), u -> true));
        defs.add(nomad("cpu.user", u -> u.cpu().userMode(), u -> true));
        defs.add(nomad("cpu.throttled_time", u -> u.cpu().throttledTime(), u -> true));
        defs.add(nomad("cpu.throttled_periods", u -> u.cpu().throttledPeriods(), u -> true));
        defs.add(nomad("cpu.total_ticks", u -> u.cpu().totalTicks(), u -> true));
        return List.copyOf(defs);
    }

    private static Def nomad(String suffix, ToDoubleFunction<TaskResourceUsage> value, Predicate<TaskResourceUsage> publish) {
        return new Def(BerthMetric.nomadOnly("nomad.client.allocs." + suffix), false, null, value, publish);
    }
}
