package dev.berth.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.UnknownSnapshot;

/**
 * Nomad's gauges whose names end in {@code .total} ({@code nomad.client.host.memory.total}) under their exact Prometheus
 * name in {@code nomad} naming mode, so Nomad's dashboards find {@code nomad_client_host_memory_total}. Two obstacles:
 * the Prometheus Java client strips {@code _total} from every name Micrometer gives it (the gauge is exported as
 * {@code nomad_client_host_memory}, which stays), and {@code promtool check metrics} refuses a <em>gauge</em> named
 * {@code …_total} ("non-counter metrics should not have _total suffix") but accepts an untyped metric. So this collector,
 * registered beside Micrometer's in the same Prometheus registry, writes each such gauge once more at every scrape as
 * an untyped sample with its exact name, the same labels and the same value.
 */
final class NomadTotalNames implements MultiCollector {

    private final MeterRegistry registry;

    NomadTotalNames(MeterRegistry registry) {
        this.registry = registry;
    }

    static boolean isNomadTotal(Meter meter) {
        String name = meter.getId().getName();
        return meter instanceof Gauge && name.startsWith("nomad.") && name.endsWith(".total");
    }

    @Override
    public MetricSnapshots collect() {
        Map<String, UnknownSnapshot.Builder> byName = new LinkedHashMap<>();
        for (Meter meter : registry.getMeters()) {
            if (!isNomadTotal(meter)) {
                continue;
            }
            String name = meter.getId().getName().replace('.', '_');
            List<String> keys = new ArrayList<>();
            List<String> values = new ArrayList<>();
            for (Tag tag : meter.getId().getTagsAsIterable()) {
                keys.add(tag.getKey());
                values.add(tag.getValue());
            }
            byName.computeIfAbsent(name, n -> UnknownSnapshot.builder().name(n).help(meter.getId().getName()))
                    .dataPoint(UnknownSnapshot.UnknownDataPointSnapshot.builder().labels(Labels.of(keys, values))
                            .value(((Gauge) meter).value()).build());
        }
        List<MetricSnapshot> snapshots = new ArrayList<>();
        byName.values().forEach(b -> snapshots.add(b.build()));
        return new MetricSnapshots(snapshots);
    }
}
