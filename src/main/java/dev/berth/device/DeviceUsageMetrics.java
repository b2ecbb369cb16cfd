package dev.berth.device;

import java.util.HashMap;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import dev.berth.config.BerthMetric;
import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricScope;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;

/**
 * Gauges from {@link DeviceUsage}: per (instance, task) device memory and utilization of the task's processes, and per
 * reserved instance the number of foreign processes on it. Labels {@code vendor, type, model, instance, job, task}
 * (+ {@code alloc_id} unless {@code berth.telemetry.allocation-labels=false}); for foreign processes {@code job},
 * {@code task} and {@code alloc_id} name the holder. Series are reconciled after every recomputation: a task that
 * stopped using an instance leaves no stale series.
 */
public class DeviceUsageMetrics {

    static final BerthMetric TASK_MEMORY = BerthMetric.of("berth.device.task.memory.used", "nomad.client.device.task.memory.used",
            "Device memory held by the task's processes on the instance").withBaseUnit(BaseUnits.BYTES);

    static final BerthMetric TASK_UTILIZATION = BerthMetric.of("berth.device.task.utilization", "nomad.client.device.task.utilization",
            "Compute (SM) utilization of the task's processes on the instance").percentAsRatio();

    static final BerthMetric FOREIGN = BerthMetric.of("berth.device.foreign.processes", "nomad.client.device.foreign.processes",
            "Processes on a reserved instance that belong to no task of the holding allocation");

    private static final double MIB = 1024.0 * 1024.0;

    private final BerthMetrics metrics;

    private final DeviceUsage usage;

    private final boolean allocationLabels;

    private final Map<String, Meter> registered = new HashMap<>();

    public DeviceUsageMetrics(BerthMetrics metrics, DeviceUsage usage, boolean allocationLabels) {
        this.metrics = metrics;
        this.usage = usage;
        this.allocationLabels = allocationLabels;
        usage.onChange(this::refresh);
    }

    private record Spec(BerthMetric metric, Tags tags, ToDoubleFunction<DeviceUsage.Snapshot> value) {
    }

    /** Brings the registered series in line with the latest snapshot. */
    public synchronized void refresh() {
        DeviceUsage.Snapshot snapshot = usage.snapshot();
        Map<String, Spec> wanted = new HashMap<>();
        snapshot.byInstance().forEach((id, tasks) -> tasks.forEach((task, use) -> {
            Tags tags = tags(snapshot.groups().get(id), id, task);
            if (use.memoryKnown()) {
                add(wanted, new Spec(TASK_MEMORY, tags, (s) -> read(s, id, task, (u) -> u.memoryKnown() ? u.memoryMib() * MIB : Double.NaN)));
            }
            if (use.utilizationPercent() != null) {
                add(wanted, new Spec(TASK_UTILIZATION, tags, (s) -> read(s, id, task,
                        (u) -> u.utilizationPercent() == null ? Double.NaN : u.utilizationPercent())));
            }
        }));
        snapshot.foreign().forEach((id, processes) -> add(wanted, new Spec(FOREIGN,
                tags(snapshot.groups().get(id), id, snapshot.holders().get(id)),
                (s) -> s.foreign().getOrDefault(id, java.util.List.of()).size())));
        registered.entrySet().removeIf((existing) -> {
            if (wanted.containsKey(existing.getKey())) {
                return false;
            }
            metrics.remove(existing.getValue());
            return true;
        });
        wanted.forEach((key, spec) -> {
            if (!registered.containsKey(key)) {
                metrics.gauge(spec.metric(), MetricScope.NODE, spec.tags(), usage, (u) -> spec.value().applyAsDouble(u.snapshot()))
                        .ifPresent((gauge) -> registered.put(key, gauge));
            }
        });
    }

    private static double read(DeviceUsage.Snapshot snapshot, String id, TaskRef task, ToDoubleFunction<DeviceUsage.Use> field) {
        DeviceUsage.Use use = snapshot.byInstance().getOrDefault(id, Map.of()).get(task);
        return use == null ? Double.NaN : field.applyAsDouble(use);
    }

    private static void add(Map<String, Spec> wanted, Spec spec) {
        wanted.put(spec.metric().name() + spec.tags(), spec);
    }

    private Tags tags(DeviceGroupKey group, String instanceId, TaskRef task) {
        Tags tags = Tags.of("vendor", group.vendor(), "type", group.type(), "model", group.name(), "instance", instanceId,
                "job", task.job(), "task", task.task());
        return allocationLabels ? tags.and("alloc_id", task.allocId()) : tags;
    }
}
