package dev.berth.device;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

import dev.berth.config.MetricsNaming;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * Gauges per device instance: health, and, when the plugin reports them, utilization, memory used/total, power and
 * temperature. Labels {@code vendor, type, model, instance}, plus {@code alloc_id, job, task} of the task holding the
 * instance (empty when free), something neither Nomad nor dcgm-exporter does.
 *
 * <p>The set of series is recomputed when the fingerprint, the reservations or the set of reported statistics changes:
 * series of instances that are gone or changed holder are removed, so no stale series remain. Gauges read the latest
 * values from the {@link DeviceStatsIndex}; a scrape never triggers a plugin call.
 *
 * <p>Statistics are found by Nomad's NVIDIA names ({@code GPU utilization} %, {@code Memory state} MiB used/total,
 * {@code Power usage} W, {@code Temperature} C), which other plugins can use too.
 */
public class DeviceMetrics implements DeviceUpdateListener {

    /** A metric: how its name is written in each naming mode, and how its value is read. */
    enum Kind {
        HEALTHY("berth.device.healthy", null, "nomad.client.device.healthy", "Whether the device instance is healthy (1) or not (0)"),
        UTILIZATION("berth.device.utilization", "ratio", "nomad.client.device.utilization", "Device utilization"),
        MEMORY_USED("berth.device.memory.used", "bytes", "nomad.client.device.memory.used", "Device memory in use"),
        MEMORY_TOTAL("berth.device.memory.total", "bytes", "nomad.client.device.memory.total", "Device memory in total"),
        POWER("berth.device.power", "watts", "nomad.client.device.power", "Device power draw"),
        TEMPERATURE("berth.device.temperature", "celsius", "nomad.client.device.temperature", "Device temperature");

        final String prometheusName;

        final String baseUnit;

        final String nomadName;

        final String description;

        Kind(String prometheusName, String baseUnit, String nomadName, String description) {
            this.prometheusName = prometheusName;
            this.baseUnit = baseUnit;
            this.nomadName = nomadName;
            this.description = description;
        }
    }

    private static final double MIB = 1024.0 * 1024.0;

    private final MeterRegistry registry;

    private final DeviceManager manager;

    private final DeviceStatsIndex index;

    private final DeviceAllocator allocator;

    private final MetricsNaming naming;

    private final String host;

    private final boolean allocationLabels;

    /** Series registered now, by identity (kind + tags). */
    private final Map<String, Meter> registered = new HashMap<>();

    private volatile Map<String, Boolean> health = Map.of();

    public DeviceMetrics(MeterRegistry registry, DeviceManager manager, DeviceStatsIndex index, DeviceAllocator allocator,
            MetricsNaming naming, String host) {
        this(registry, manager, index, allocator, naming, host, true);
    }

    /**
     * @param allocationLabels whether series carry {@code alloc_id} ({@code berth.telemetry.allocation-labels}); without
     *                         it they keep {@code job} and {@code task}, which bounds cardinality
     */
    public DeviceMetrics(MeterRegistry registry, DeviceManager manager, DeviceStatsIndex index, DeviceAllocator allocator,
            MetricsNaming naming, String host, boolean allocationLabels) {
        this.allocationLabels = allocationLabels;
        this.registry = registry;
        this.manager = manager;
        this.index = index;
        this.allocator = allocator;
        this.naming = naming;
        this.host = host;
        index.onUpdate(this::refresh);
        allocator.onChange(this::refresh);
    }

    @Override
    public void devicesUpdated(List<DeviceGroup> devices) {
        refresh();
    }

    /** Brings the registered series in line with the current devices, holders and reported statistics. */
    public synchronized void refresh() {
        Map<String, Boolean> currentHealth = new HashMap<>();
        Map<String, Spec> wanted = new HashMap<>();
        for (DeviceGroup group : manager.devices()) {
            for (DeviceInstance instance : group.instances()) {
                currentHealth.put(instance.id(), instance.healthy());
                Tags tags = tags(group.key(), instance.id());
                add(wanted, Kind.HEALTHY, tags, instance.id());
                DeviceStatsIndex.Entry entry = index.get(instance.id());
                if (entry != null) {
                    for (Kind kind : Set.of(Kind.UTILIZATION, Kind.MEMORY_USED, Kind.MEMORY_TOTAL, Kind.POWER, Kind.TEMPERATURE)) {
                        if (!Double.isNaN(read(kind, entry))) {
                            add(wanted, kind, tags, instance.id());
                        }
                    }
                }
            }
        }
        this.health = currentHealth;
        registered.entrySet().removeIf((existing) -> {
            if (wanted.containsKey(existing.getKey())) {
                return false;
            }
            registry.remove(existing.getValue());
            return true;
        });
        wanted.forEach((key, spec) -> registered.computeIfAbsent(key, (k) -> register(spec)));
    }

    private record Spec(Kind kind, Tags tags, String instanceId) {
    }

    private void add(Map<String, Spec> wanted, Kind kind, Tags tags, String instanceId) {
        wanted.put(kind.name() + tags, new Spec(kind, tags, instanceId));
    }

    private Tags tags(DeviceGroupKey group, String instanceId) {
        var holder = allocator.holder(instanceId);
        Tags tags = Tags.of("vendor", group.vendor(), "type", group.type(), "model", group.name(), "instance", instanceId,
                "job", holder.map((h) -> h.task().job()).orElse(""),
                "task", holder.map((h) -> h.task().task()).orElse(""));
        if (allocationLabels) {
            tags = tags.and("alloc_id", holder.map((h) -> h.task().allocId()).orElse(""));
        }
        return naming == MetricsNaming.NOMAD ? tags.and("host", host) : tags;
    }

    private Meter register(Spec spec) {
        boolean nomad = naming == MetricsNaming.NOMAD;
        ToDoubleFunction<DeviceMetrics> value = (metrics) -> metrics.value(spec.kind(), spec.instanceId(), nomad);
        Gauge.Builder<DeviceMetrics> builder = Gauge.builder(nomad ? spec.kind().nomadName : spec.kind().prometheusName, this, value)
                .description(spec.kind().description)
                .tags(spec.tags());
        if (!nomad && spec.kind().baseUnit != null) {
            builder.baseUnit(spec.kind().baseUnit);
        }
        return builder.register(registry);
    }

    /** The current value; NaN when the statistic is not (or no longer) reported. */
    double value(Kind kind, String instanceId, boolean nomadUnits) {
        if (kind == Kind.HEALTHY) {
            Boolean healthy = health.get(instanceId);
            return healthy == null ? Double.NaN : healthy ? 1 : 0;
        }
        DeviceStatsIndex.Entry entry = index.get(instanceId);
        if (entry == null) {
            return Double.NaN;
        }
        double raw = read(kind, entry);
        if (nomadUnits) {
            // Nomad style: percent, MiB→bytes kept as bytes (Nomad reports memory in bytes), W, C
            return kind == Kind.UTILIZATION ? raw * 100 : raw;
        }
        return raw;
    }

    /** The statistic in base units (ratio, bytes, watts, celsius), NaN when unavailable. */
    private static double read(Kind kind, DeviceStatsIndex.Entry entry) {
        StatObject stats = entry.stats().stats();
        if (stats == null) {
            return Double.NaN;
        }
        return switch (kind) {
            case UTILIZATION -> scaled(stats.attribute("GPU utilization"), false, 0.01);
            case MEMORY_USED -> scaled(stats.attribute("Memory state"), false, MIB);
            case MEMORY_TOTAL -> scaled(stats.attribute("Memory state"), true, MIB);
            case POWER -> scaled(stats.attribute("Power usage"), false, 1);
            case TEMPERATURE -> scaled(stats.attribute("Temperature"), false, 1);
            case HEALTHY -> Double.NaN;
        };
    }

    private static double scaled(StatValue value, boolean denominator, double factor) {
        if (value == null) {
            return Double.NaN;
        }
        Double number = denominator ? value.denominator() : value.numerator();
        return number == null ? Double.NaN : number * factor;
    }
}
