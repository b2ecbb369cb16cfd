package dev.berth.stats;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;

import dev.berth.config.BerthMetric;
import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricScope;

/**
 * Host gauges (Nomad's {@code publish_node_metrics} set) fed from the collector's snapshots: gauges read the latest
 * snapshot, so a scrape never touches the OS. Meters appear with the first snapshot; per-disk gauges follow the
 * partitions (added when a partition appears, removed when it goes away). In Nomad mode each tick also increments
 * {@code nomad.client.host.cpu.total_ticks_count} by the core's {@code TotalTicks}, as Nomad does.
 */
public final class HostMetrics implements HostStatsListener {

    public static final BerthMetric MEMORY_TOTAL = BerthMetric.of("berth.host.memory.total",
            "nomad.client.host.memory.total", "Total physical memory of the host").withBaseUnit(BaseUnits.BYTES);
    public static final BerthMetric MEMORY_AVAILABLE = BerthMetric.of("berth.host.memory.available",
            "nomad.client.host.memory.available", "Memory available for new work without swapping (MemAvailable)")
            .withBaseUnit(BaseUnits.BYTES);
    public static final BerthMetric MEMORY_USED = BerthMetric.of("berth.host.memory.used",
            "nomad.client.host.memory.used", "Memory used: total - free - buffers - cache").withBaseUnit(BaseUnits.BYTES);
    public static final BerthMetric MEMORY_FREE = BerthMetric.of("berth.host.memory.free",
            "nomad.client.host.memory.free", "Unused memory (MemFree)").withBaseUnit(BaseUnits.BYTES);
    public static final BerthMetric CPU_BUSY = BerthMetric.of("berth.host.cpu.busy",
            "nomad.client.host.cpu.total_percent", "Share of the last interval the core was busy (every mode but idle)")
            .percentAsRatio();
    public static final BerthMetric CPU_USER = BerthMetric.of("berth.host.cpu.user", "nomad.client.host.cpu.user",
            "Share of the last interval the core spent in user mode").percentAsRatio();
    public static final BerthMetric CPU_SYSTEM = BerthMetric.of("berth.host.cpu.system", "nomad.client.host.cpu.system",
            "Share of the last interval the core spent in kernel mode").percentAsRatio();
    public static final BerthMetric CPU_IDLE = BerthMetric.of("berth.host.cpu.idle", "nomad.client.host.cpu.idle",
            "Share of the last interval the core was idle").percentAsRatio();
    public static final BerthMetric CPU_TOTAL_TICKS = BerthMetric.nomadOnly("nomad.client.host.cpu.total_ticks");
    public static final BerthMetric CPU_TOTAL_TICKS_COUNT = BerthMetric.nomadOnly("nomad.client.host.cpu.total_ticks_count");
    public static final BerthMetric DISK_SIZE = BerthMetric.of("berth.host.disk.size", "nomad.client.host.disk.size",
            "Size of the file system").withBaseUnit(BaseUnits.BYTES);
    public static final BerthMetric DISK_USED = BerthMetric.of("berth.host.disk.used", "nomad.client.host.disk.used",
            "Bytes used on the file system").withBaseUnit(BaseUnits.BYTES);
    public static final BerthMetric DISK_AVAILABLE = BerthMetric.of("berth.host.disk.available",
            "nomad.client.host.disk.available", "Bytes available to unprivileged users").withBaseUnit(BaseUnits.BYTES);
    public static final BerthMetric DISK_USAGE = BerthMetric.of("berth.host.disk.usage",
            "nomad.client.host.disk.used_percent", "Used share of the file system: used / (used + available)")
            .percentAsRatio();
    public static final BerthMetric DISK_INODES_USAGE = BerthMetric.of("berth.host.disk.inodes.usage",
            "nomad.client.host.disk.inodes_percent", "Used share of the file system's inodes").percentAsRatio();
    public static final BerthMetric UPTIME = BerthMetric.of("berth.host.uptime", "nomad.client.uptime",
            "Seconds since the host booted").withBaseUnit("seconds");

    private final BerthMetrics metrics;
    /** Latest snapshot indexed for the gauges; replaced whole, read lock-free. */
    private volatile Indexed latest;
    /** Only touched on the collector thread (onHostStats). */
    private final Map<String, Counter> tickCounters = new HashMap<>();
    private final Map<String, List<Meter>> diskMeters = new HashMap<>();
    private boolean registered;

    public HostMetrics(BerthMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "'metrics' must not be null");
    }

    @Override
    public synchronized void onHostStats(HostStats stats) {
        Indexed indexed = Indexed.of(stats);
        latest = indexed;
        if (!registered) {
            registerHostMeters(indexed);
            registered = true;
        }
        syncDisks(indexed);
        for (HostCpuStats cpu : stats.cpus()) {
            tickCounters.computeIfAbsent(cpu.cpu(),
                    name -> metrics.counter(CPU_TOTAL_TICKS_COUNT, MetricScope.NODE, Tags.of("cpu", name)))
                    .increment(cpu.totalTicks());
        }
    }

    private void registerHostMeters(Indexed first) {
        gauge(MEMORY_TOTAL, Tags.empty(), s -> s.stats.memory().total());
        gauge(MEMORY_AVAILABLE, Tags.empty(), s -> s.stats.memory().available());
        gauge(MEMORY_USED, Tags.empty(), s -> s.stats.memory().used());
        gauge(MEMORY_FREE, Tags.empty(), s -> s.stats.memory().free());
        gauge(UPTIME, Tags.empty(), s -> s.stats.uptimeSeconds());
        // The set of logical cores is fixed for the life of the process (hot-plug is not followed).
        for (String cpu : first.cpus.keySet()) {
            Tags tags = Tags.of("cpu", cpu);
            gauge(CPU_BUSY, tags, s -> cpuValue(s, cpu, HostCpuStats::totalPercent));
            gauge(CPU_USER, tags, s -> cpuValue(s, cpu, HostCpuStats::user));
            gauge(CPU_SYSTEM, tags, s -> cpuValue(s, cpu, HostCpuStats::system));
            gauge(CPU_IDLE, tags, s -> cpuValue(s, cpu, HostCpuStats::idle));
            gauge(CPU_TOTAL_TICKS, tags, s -> cpuValue(s, cpu, HostCpuStats::totalTicks));
        }
    }

    private void syncDisks(Indexed now) {
        diskMeters.entrySet().removeIf(entry -> {
            if (now.disks.containsKey(entry.getKey())) {
                return false;
            }
            entry.getValue().forEach(metrics::remove);
            return true;
        });
        for (String disk : now.disks.keySet()) {
            diskMeters.computeIfAbsent(disk, d -> {
                Tags tags = Tags.of("disk", d);
                return Stream.of(
                                gauge(DISK_SIZE, tags, s -> diskValue(s, d, HostDiskStats::size)),
                                gauge(DISK_USED, tags, s -> diskValue(s, d, HostDiskStats::used)),
                                gauge(DISK_AVAILABLE, tags, s -> diskValue(s, d, HostDiskStats::available)),
                                gauge(DISK_USAGE, tags, s -> diskValue(s, d, HostDiskStats::usedPercent)),
                                gauge(DISK_INODES_USAGE, tags, s -> diskValue(s, d, HostDiskStats::inodesUsedPercent)))
                        .flatMap(Optional::stream)
                        .map(Meter.class::cast)
                        .toList();
            });
        }
    }

    private Optional<Gauge> gauge(BerthMetric metric, Tags tags, ToDoubleFunction<Indexed> value) {
        return metrics.gauge(metric, MetricScope.NODE, tags, this, self -> {
            Indexed snapshot = self.latest;
            return snapshot == null ? Double.NaN : value.applyAsDouble(snapshot);
        });
    }

    private static double cpuValue(Indexed snapshot, String cpu, ToDoubleFunction<HostCpuStats> field) {
        HostCpuStats stats = snapshot.cpus.get(cpu);
        return stats == null ? Double.NaN : field.applyAsDouble(stats);
    }

    private static double diskValue(Indexed snapshot, String disk, ToDoubleFunction<HostDiskStats> field) {
        HostDiskStats stats = snapshot.disks.get(disk);
        return stats == null ? Double.NaN : field.applyAsDouble(stats);
    }

    /** A snapshot plus lookups by core and by device (the first mount of a device wins, as one series per disk). */
    private record Indexed(HostStats stats, Map<String, HostCpuStats> cpus, Map<String, HostDiskStats> disks) {
        static Indexed of(HostStats stats) {
            Map<String, HostCpuStats> cpus = new LinkedHashMap<>();
            stats.cpus().forEach(cpu -> cpus.put(cpu.cpu(), cpu));
            Map<String, HostDiskStats> disks = new LinkedHashMap<>();
            stats.disks().forEach(disk -> disks.putIfAbsent(disk.device(), disk));
            return new Indexed(stats, Map.copyOf(cpus), Map.copyOf(disks));
        }
    }
}
