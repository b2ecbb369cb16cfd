package dev.berth.stats;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;

import dev.berth.config.MetricsNaming;
import dev.berth.stats.TaskStatsTarget.TaskKey;

/**
 * Per-task meters drawn from the collector's snapshots (a scrape never reads the kernel). After every tick the set of
 * meters is reconciled with the snapshot map: new tasks get meters, and the series of an unregistered task are
 * removed at once.
 *
 * <p>{@code prometheus} naming: {@code berth_task_*} in base units, cumulative CPU as {@code _total} counters.
 * {@code nomad} naming: Nomad's {@code nomad_client_allocs_*} gauges with its labels plus {@code host}; a memory gauge is
 * only published when its value is non-zero or it is {@code Measured} (Nomad §3.3). With {@code allocation-labels=false}
 * the {@code alloc_id} label is dropped and tasks of the same job/group/task are summed.
 */
public class TaskStatsMetrics implements MeterBinder {

    private static final String SECONDS = "seconds";

    private final TaskStatsCollector collector;
    private final MetricsNaming naming;
    private final boolean allocationLabels;
    private final String host;
    private final List<Def> defs;
    private final Map<String, Meter> meters = new HashMap<>();
    private volatile Map<Tags, TaskResourceUsage> groups = Map.of();
    private MeterRegistry registry;

    public TaskStatsMetrics(TaskStatsCollector collector, MetricsNaming naming, boolean allocationLabels, String host) {
        this.collector = collector;
        this.naming = naming;
        this.allocationLabels = allocationLabels;
        this.host = host;
        this.defs = naming == MetricsNaming.NOMAD ? nomadDefs() : prometheusDefs();
    }

    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        if (this.registry != null) {
            throw new IllegalStateException("task stats meters are bound to one registry");
        }
        this.registry = registry;
        collector.addListener(this::reconcile);
        reconcile(collector.snapshots());
    }

    synchronized void reconcile(Map<TaskKey, TaskStatsSnapshot> snapshots) {
        if (registry == null) {
            return;
        }
        Map<Tags, TaskResourceUsage> next = new LinkedHashMap<>();
        for (TaskStatsSnapshot snapshot : snapshots.values()) {
            next.merge(tags(snapshot.target()), snapshot.usage(), TaskResourceUsage::plus);
        }
        groups = next;
        Map<String, Runnable> wanted = new LinkedHashMap<>();
        next.forEach((tags, usage) -> {
            for (Def def : defs) {
                if (def.publish().test(usage)) {
                    String key = def.name() + (def.extraTags() == null ? tags : tags.and(def.extraTags()));
                    wanted.put(key, () -> meters.put(key, register(def, tags)));
                }
            }
        });
        for (String key : new ArrayList<>(meters.keySet())) {
            if (!wanted.containsKey(key)) {
                registry.remove(meters.remove(key));
            }
        }
        wanted.forEach((key, registration) -> {
            if (!meters.containsKey(key)) {
                registration.run();
            }
        });
    }

    private Meter register(Def def, Tags tags) {
        ToDoubleFunction<TaskStatsMetrics> value = self -> {
            TaskResourceUsage usage = self.groups.get(tags);
            return usage == null ? Double.NaN : def.value().applyAsDouble(usage);
        };
        Tags all = def.extraTags() == null ? tags : tags.and(def.extraTags());
        if (def.counter()) {
            return FunctionCounter.builder(def.name(), this, value).tags(all).baseUnit(def.unit()).description(def.description())
                    .register(registry);
        }
        return Gauge.builder(def.name(), this, value).tags(all).baseUnit(def.unit()).description(def.description())
                .strongReference(true).register(registry);
    }

    private Tags tags(TaskStatsTarget target) {
        Tags tags = Tags.of("job", target.job(), "namespace", target.namespace(), "task", target.task(), "task_group", target.taskGroup());
        if (allocationLabels) {
            tags = tags.and("alloc_id", target.allocId());
        }
        return naming == MetricsNaming.NOMAD ? tags.and("host", host) : tags;
    }

    /** One meter: how to compute it from a (summed) usage, and when it exists. */
    private record Def(String name, String unit, String description, boolean counter, Tags extraTags,
            ToDoubleFunction<TaskResourceUsage> value, Predicate<TaskResourceUsage> publish) {
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
        defs.add(new Def("berth.task.cpu.usage", SECONDS, "CPU time consumed", true, null,
                u -> u.cpu().totalNs() / 1e9, u -> u.cpu().isMeasured(TaskCpuField.PERCENT)));
        defs.add(new Def("berth.task.cpu", SECONDS, "CPU time consumed by mode", true, Tags.of("mode", "user"),
                u -> u.cpu().userNs() / 1e9, u -> u.cpu().isMeasured(TaskCpuField.USER_MODE)));
        defs.add(new Def("berth.task.cpu", SECONDS, "CPU time consumed by mode", true, Tags.of("mode", "system"),
                u -> u.cpu().systemNs() / 1e9, u -> u.cpu().isMeasured(TaskCpuField.SYSTEM_MODE)));
        defs.add(new Def("berth.task.cpu.throttled.periods", null, "CFS periods in which the task was throttled", true, null,
                u -> u.cpu().throttledPeriods(), u -> u.cpu().isMeasured(TaskCpuField.THROTTLED_PERIODS)));
        defs.add(new Def("berth.task.cpu.throttled", SECONDS, "Time the task was throttled", true, null,
                u -> u.cpu().throttledTime() / 1e9, u -> u.cpu().isMeasured(TaskCpuField.THROTTLED_TIME)));
        return List.copyOf(defs);
    }

    private static void memory(List<Def> defs, String name, TaskMemoryField field, String description) {
        defs.add(new Def("berth.task.memory." + name, BaseUnits.BYTES, description, false, null,
                u -> u.memory().get(field), u -> u.memory().isMeasured(field)));
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

    private static Def nomad(String suffix, ToDoubleFunction<TaskResourceUsage> value,
            Predicate<TaskResourceUsage> publish) {
        String name = "nomad.client.allocs." + suffix;
        return new Def(name, null, name.replace('.', '_'), false, null, value, publish);
    }
}
