package dev.berth.device;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.berth.config.BerthMetric;
import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricScope;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;

/**
 * Gauges per device instance: health, and, when the plugin reports them, utilization, memory used/total, power and
 * temperature. Labels {@code vendor, type, model, instance}, plus {@code alloc_id, job, task} of the task holding the
 * instance (empty when free), something neither Nomad nor dcgm-exporter does.
 *
 * <p>The set of series is recomputed when the fingerprint, the reservations or the set of reported statistics changes:
 * series of instances that are gone or changed holder are removed, so no stale series remain. Gauges read the latest
 * values from the {@link DeviceStatsIndex}; a scrape never triggers a plugin call.
 *
 * <p>Registered through {@link BerthMetrics}, so {@code berth.metrics.naming} picks Prometheus names
 * ({@code berth_device_*} in base units) or Nomad-style names ({@code nomad_client_device_*}, percent, with Nomad's
 * node labels); Nomad itself has no device metrics.
 *
 * <p>Statistics are found by Nomad's NVIDIA names ({@code GPU utilization} %, {@code Memory state} MiB used/total,
 * {@code Power usage} W, {@code Temperature} C, {@code ECC L1/L2/memory errors}), which other plugins can use too.
 */
public class DeviceMetrics implements DeviceUpdateListener {

    static final BerthMetric HEALTHY = BerthMetric.of("berth.device.healthy", "nomad.client.device.healthy",
            "Whether the device instance is healthy (1) or not (0)");

    static final BerthMetric UTILIZATION = BerthMetric.of("berth.device.utilization", "nomad.client.device.utilization",
            "Device utilization").percentAsRatio();

    static final BerthMetric MEMORY_USED = BerthMetric.of("berth.device.memory.used", "nomad.client.device.memory.used",
            "Device memory in use").withBaseUnit(BaseUnits.BYTES);

    // not "…memory.total": the Prometheus client drops a trailing "_total" from gauge names
    static final BerthMetric MEMORY_TOTAL = BerthMetric.of("berth.device.memory.total", "nomad.client.device.memory.size",
            "Device memory in total").withBaseUnit(BaseUnits.BYTES);

    static final BerthMetric POWER = BerthMetric.of("berth.device.power", "nomad.client.device.power", "Device power draw")
            .withBaseUnit("watts");

    static final BerthMetric TEMPERATURE = BerthMetric.of("berth.device.temperature", "nomad.client.device.temperature",
            "Device temperature").withBaseUnit("celsius");

    static final BerthMetric ECC_ERRORS = BerthMetric.of("berth.device.ecc.errors", "nomad.client.device.ecc.errors",
            "Uncorrected ECC errors since the driver loaded (volatile counters: L1 and L2 cache and device memory, summed)");

    /** A metric and how its value (in Nomad's unit: percent, bytes, W, C) is read from an instance's statistics. */
    enum Kind {
        HEALTHY(DeviceMetrics.HEALTHY), UTILIZATION(DeviceMetrics.UTILIZATION), MEMORY_USED(DeviceMetrics.MEMORY_USED),
        MEMORY_TOTAL(DeviceMetrics.MEMORY_TOTAL), POWER(DeviceMetrics.POWER), TEMPERATURE(DeviceMetrics.TEMPERATURE),
        ECC_ERRORS(DeviceMetrics.ECC_ERRORS);

        final BerthMetric metric;

        Kind(BerthMetric metric) {
            this.metric = metric;
        }
    }

    private static final List<Kind> STAT_KINDS = List.of(Kind.UTILIZATION, Kind.MEMORY_USED, Kind.MEMORY_TOTAL, Kind.POWER,
            Kind.TEMPERATURE, Kind.ECC_ERRORS);

    private static final double MIB = 1024.0 * 1024.0;

    private final BerthMetrics metrics;

    private final DeviceManager manager;

    private final DeviceStatsIndex index;

    private final DeviceAllocator allocator;

    private final boolean allocationLabels;

    /** Series registered now, by identity (kind + tags). */
    private final Map<String, Meter> registered = new HashMap<>();

    private volatile Map<String, Boolean> health = Map.of();

    /** Instance → which statistics it reported at the last refresh (bit per kind); decides whether a stats update
     *  needs new series, so the usual update (same instances, same statistics) costs no meter work. */
    private Map<String, Integer> statsShape = Map.of();

    /**
     * @param allocationLabels whether series carry {@code alloc_id} ({@code berth.telemetry.allocation-labels}); without
     *                         it they keep {@code job} and {@code task}, which bounds cardinality
     */
    public DeviceMetrics(BerthMetrics metrics, DeviceManager manager, DeviceStatsIndex index, DeviceAllocator allocator,
            boolean allocationLabels) {
        this.metrics = metrics;
        this.manager = manager;
        this.index = index;
        this.allocator = allocator;
        this.allocationLabels = allocationLabels;
        index.onUpdate(this::refreshIfStatsShapeChanged);
        allocator.onChange(this::refresh);
    }

    @Override
    public void devicesUpdated(List<DeviceGroup> devices) {
        refresh();
    }

    /** Called after every statistics update: refreshes only when an instance gained or lost a statistic. */
    synchronized void refreshIfStatsShapeChanged() {
        if (!shape().equals(statsShape)) {
            refresh();
        }
    }

    private Map<String, Integer> shape() {
        Map<String, Integer> shape = new HashMap<>();
        for (DeviceGroup group : manager.devices()) {
            for (DeviceInstance instance : group.instances()) {
                DeviceStatsIndex.Entry entry = index.get(instance.id());
                int bits = 0;
                if (entry != null) {
                    for (Kind kind : STAT_KINDS) {
                        if (!Double.isNaN(read(kind, entry))) {
                            bits |= 1 << kind.ordinal();
                        }
                    }
                }
                shape.put(instance.id(), bits);
            }
        }
        return shape;
    }

    /** Brings the registered series in line with the current devices, holders and reported statistics. */
    public synchronized void refresh() {
        statsShape = shape();
        Map<String, Boolean> currentHealth = new HashMap<>();
        Map<String, Spec> wanted = new HashMap<>();
        for (DeviceGroup group : manager.devices()) {
            for (DeviceInstance instance : group.instances()) {
                currentHealth.put(instance.id(), instance.healthy());
                Tags tags = tags(group.key(), instance.id());
                add(wanted, Kind.HEALTHY, tags, instance.id());
                DeviceStatsIndex.Entry entry = index.get(instance.id());
                if (entry != null) {
                    for (Kind kind : STAT_KINDS) {
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
            metrics.remove(existing.getValue());
            return true;
        });
        wanted.forEach((key, spec) -> {
            if (!registered.containsKey(key)) {
                metrics.gauge(spec.kind().metric, MetricScope.NODE, spec.tags(), this,
                        (self) -> self.value(spec.kind(), spec.instanceId())).ifPresent((gauge) -> registered.put(key, gauge));
            }
        });
    }

    private record Spec(Kind kind, Tags tags, String instanceId) {
    }

    private static void add(Map<String, Spec> wanted, Kind kind, Tags tags, String instanceId) {
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
        return tags;
    }

    /** The current value in Nomad's unit; NaN when the statistic is not (or no longer) reported. */
    double value(Kind kind, String instanceId) {
        if (kind == Kind.HEALTHY) {
            Boolean healthy = health.get(instanceId);
            return healthy == null ? Double.NaN : healthy ? 1 : 0;
        }
        DeviceStatsIndex.Entry entry = index.get(instanceId);
        return entry == null ? Double.NaN : read(kind, entry);
    }

    /** The statistic in Nomad's unit (percent, bytes, watts, celsius), NaN when unavailable. */
    private static double read(Kind kind, DeviceStatsIndex.Entry entry) {
        StatObject stats = entry.stats().stats();
        if (stats == null) {
            return Double.NaN;
        }
        return switch (kind) {
            case UTILIZATION -> scaled(stats.attribute("GPU utilization"), false, 1);
            case MEMORY_USED -> scaled(stats.attribute("Memory state"), false, MIB);
            case MEMORY_TOTAL -> scaled(stats.attribute("Memory state"), true, MIB);
            case POWER -> scaled(stats.attribute("Power usage"), false, 1);
            case TEMPERATURE -> scaled(stats.attribute("Temperature"), false, 1);
            case ECC_ERRORS -> sum(scaled(stats.attribute("ECC L1 errors"), false, 1), scaled(stats.attribute("ECC L2 errors"), false, 1),
                    scaled(stats.attribute("ECC memory errors"), false, 1));
            case HEALTHY -> Double.NaN;
        };
    }

    /** The sum of the values reported; NaN when none is (a GPU without ECC reports none). */
    private static double sum(double... values) {
        double total = Double.NaN;
        for (double v : values) {
            if (!Double.isNaN(v)) {
                total = Double.isNaN(total) ? v : total + v;
            }
        }
        return total;
    }

    private static double scaled(StatValue value, boolean denominator, double factor) {
        if (value == null) {
            return Double.NaN;
        }
        Double number = denominator ? value.denominator() : value.numerator();
        return number == null ? Double.NaN : number * factor;
    }
}
