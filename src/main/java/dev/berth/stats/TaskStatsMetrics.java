package dev.berth.stats;

import java.util.ArrayList;
import java.util.HashMap;
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
 * {@link BerthMetrics} so names and the {@code host} label follow {@code berth.metrics.naming}. After every tick the
 * set of meters is reconciled with the snapshot map: new tasks get meters, and the series of an unregistered task are
 * removed at once.
 *
 * <p>{@code prometheus} naming: {@code berth_task_*} in base units (only what is measured), cumulative CPU time as
 * {@code _total} counters. {@code nomad} naming: Nomad's {@code nomad_client_allocs_*} gauges; a memory gauge is only
 * published when its value is non-zero or it is {@code Measured} (as Nomad's task runner emits them), the CPU gauges
 * always. With {@code allocation-labels=false} the {@code alloc_id} label is dropped and tasks of the same
 * job/group/task are summed.
 */
public class TaskStatsMetrics {

    private static final String SECONDS = "seconds";
    static final BerthMetric CPU_TOTAL_TICKS_COUNT = BerthMetric.nomadOnly("nomad.client.allocs.cpu.total_ticks_count");

    private final TaskStatsCollector collector;
    private final BerthMetrics metrics;
    private final boolean allocationLabels;
    private final List<Def> defs;
    /** Each sampled task's label group, looked up by the task's key (no tags are built or hashed per tick). */
    private final Map<TaskKey, Member> members = new HashMap<>();
    /** The label groups by their tags: tasks with the same labels share one (allocation-labels=false sums them). */
    private final Map<Tags, Group> groupsByTags = new HashMap<>();
    /** The label groups as an array, rebuilt when groups come or go. */
    private Group[] groups = new Group[0];
    private long tick;

    public TaskStatsMetrics(TaskStatsCollector collector, BerthMetrics metrics, boolean allocationLabels) {
        this.collector = collector;
        this.metrics = metrics;
        this.allocationLabels = allocationLabels;
        this.defs = metrics.naming() == MetricsNaming.NOMAD ? nomadDefs() : prometheusDefs();
        if (defs.size() > Long.SIZE) {
            throw new IllegalStateException("more meter definitions than bits in a mask");
        }
    }

    /** Starts following the collector: meters are reconciled after every tick and every unregister. */
    public void bind() {
        collector.addListener(this::reconcile);
        reconcile(collector.snapshots());
    }

    /**
     * Brings the meters in line with the snapshots. This runs every tick for every task (1,000 tasks: 14k series), so
     * members and groups are looked up per task but created and dropped only when tasks come or go, tags are built once
     * per task, and meters are registered or removed only when a group appears, disappears, or starts or stops
     * measuring a field.
     */
    synchronized void reconcile(Map<TaskKey, TaskStatsSnapshot> snapshots) {
        long now = ++tick;
        boolean groupsChanged = false;
        for (Map.Entry<TaskKey, TaskStatsSnapshot> entry : snapshots.entrySet()) {
            TaskStatsSnapshot snapshot = entry.getValue();
            Member member = members.get(entry.getKey());
            if (member == null || member.target != snapshot.target()) { // new, or re-registered with a new target
                member = new Member(snapshot.target(), group(tags(snapshot.target())));
                members.put(entry.getKey(), member);
                groupsChanged = true;
            }
            member.seen = now;
            add(member, snapshot, now);
        }
        groupsChanged |= members.values().removeIf(member -> member.seen != now);
        groupsChanged |= groupsByTags.values().removeIf(group -> {
            boolean gone = group.summedAt != now;
            if (gone) {
                group.removeAll();
            }
            return gone;
        });
        if (groupsChanged) {
            groups = groupsByTags.values().toArray(Group[]::new);
        }
        for (Group group : groups) {
            group.usage = group.sum;
            if (!group.sameFieldsAsPublished(group.sum)) {
                group.publish(mask(group.sum));
            }
        }
    }

    private void add(Member member, TaskStatsSnapshot snapshot, long now) {
        Group group = member.group;
        group.sum = group.summedAt == now ? group.sum.plus(snapshot.usage()) : snapshot.usage();
        group.summedAt = now;
        if (metrics.naming() == MetricsNaming.NOMAD && member.countedTimestamp != snapshot.timestampNanos()) {
            member.countedTimestamp = snapshot.timestampNanos();
            group.ticks().increment(snapshot.usage().cpu().totalTicks());
        }
    }

    private long mask(TaskResourceUsage usage) {
        long mask = 0;
        for (int i = 0; i < defs.size(); i++) {
            if (defs.get(i).publish().test(usage)) {
                mask |= 1L << i;
            }
        }
        return mask;
    }

    private Group group(Tags tags) {
        return groupsByTags.computeIfAbsent(tags, Group::new);
    }

    /** One sampled task: its target (tags are rebuilt only when a re-registered task brings a new one) and group. */
    private static final class Member {
        final TaskStatsTarget target;
        final Group group;
        long seen;
        long countedTimestamp = Long.MIN_VALUE;

        Member(TaskStatsTarget target, Group group) {
            this.target = target;
            this.group = group;
        }
    }

    /**
     * One label group and its meters, one per definition whose bit is set in {@link #published}. The gauges read
     * {@link #usage}, swapped once per tick.
     */
    private final class Group {
        final Tags tags;
        final Meter[] meters = new Meter[defs.size()];
        long published;
        /** The summed usage of the group's members at the last tick; the meters read it. */
        volatile TaskResourceUsage usage;
        /** The measured sets the published mask was computed from (canonical sets: compared by identity). */
        Set<TaskMemoryField> maskedMemory;
        Set<TaskCpuField> maskedCpu;
        /** The sum being built during a reconcile, and the tick it belongs to. */
        TaskResourceUsage sum;
        long summedAt;
        /** Nomad's {@code cpu.total_ticks_count}: incremented by TotalTicks once per new sample of each member. */
        Counter ticks;

        Group(Tags tags) {
            this.tags = tags;
        }

        Counter ticks() {
            if (ticks == null) {
                ticks = metrics.counter(CPU_TOTAL_TICKS_COUNT, MetricScope.TASK, tags);
            }
            return ticks;
        }

        /**
         * With Prometheus naming a meter exists exactly when its field is measured, so while the measured sets are the
         * ones the mask was computed from (the same shared instances, {@link FieldSets}) the mask cannot have changed.
         * Nomad naming also looks at values (memory published when non-zero): always recomputed.
         */
        boolean sameFieldsAsPublished(TaskResourceUsage usage) {
            boolean same = metrics.naming() != MetricsNaming.NOMAD && usage.memory().fields() == maskedMemory
                    && usage.cpu().fields() == maskedCpu;
            maskedMemory = usage.memory().fields();
            maskedCpu = usage.cpu().fields();
            return same;
        }

        void publish(long wanted) {
            long changed = wanted ^ published;
            if (changed == 0) {
                return;
            }
            for (int i = 0; i < meters.length; i++) {
                long bit = 1L << i;
                if ((changed & bit) == 0) {
                    continue;
                }
                if ((wanted & bit) != 0) {
                    Def def = defs.get(i);
                    Tags all = def.extraTags() == null ? tags : tags.and(def.extraTags());
                    meters[i] = register(def, this, all).orElse(null);
                } else if (meters[i] != null) {
                    metrics.remove(meters[i]);
                    meters[i] = null;
                }
            }
            published = wanted;
        }

        void removeAll() {
            usage = null;
            maskedMemory = null;
            maskedCpu = null;
            publish(0);
            if (ticks != null) {
                metrics.remove(ticks);
                ticks = null;
            }
        }
    }

    private Optional<? extends Meter> register(Def def, Group group, Tags tags) {
        ToDoubleFunction<TaskStatsMetrics> value = self -> {
            TaskResourceUsage usage = group.usage;
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
        memory(defs, "swap", TaskMemoryField.SWAP, "Swap used by the task (swap alone; Nomad reports memory+swap)");
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
