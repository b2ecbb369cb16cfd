package dev.berth.config;

import java.util.Objects;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.noop.NoopCounter;
import io.micrometer.core.instrument.noop.NoopTimer;

/**
 * The one way Berth features register meters, so every metric is named and labelled consistently in both
 * {@link MetricsNaming} modes ({@code berth.metrics.naming}).
 *
 * <p>Contract for callers:
 * <ul>
 *   <li>Describe each metric once as a {@link BerthMetric} constant (Prometheus name + base unit, Nomad name).</li>
 *   <li>Report values in Nomad's unit (percent, MHz, bytes…); {@link BerthMetric#prometheusScale()} converts them
 *       for Prometheus mode. Counters must have scale 1 (they are incremented, not read).</li>
 *   <li>Pass only <b>bounded</b> tags ({@code cpu}, {@code disk}, {@code task}, {@code job}…). Per-allocation tags
 *       ({@code alloc_id}) are allowed only behind {@code berth.telemetry.allocation-labels}.</li>
 *   <li>The {@link MetricScope} decides the labels added here: in Nomad mode {@code host} on everything, plus
 *       {@code node_id}/{@code datacenter}/{@code node_class} on {@link MetricScope#NODE} metrics. Prometheus mode adds
 *       nothing (the scrape target identifies the node).</li>
 *   <li>A metric with no name in the active mode is not registered: {@link #gauge} returns empty, {@link #counter}
 *       and {@link #timer} return no-op meters, so callers never branch on the mode.</li>
 *   <li>Gauges hold a <b>strong</b> reference to their state object; call {@link #remove(Meter)} when the subject
 *       (an allocation, a disk) goes away, or the series lives forever.</li>
 *   <li>Never read the OS or a cgroup inside a gauge function: gauges must read the latest collected snapshot,
 *       because a scrape must never trigger collection.</li>
 * </ul>
 * Thread-safe: it only delegates to the {@link MeterRegistry}.
 */
public final class BerthMetrics {

    private final MeterRegistry registry;
    private final MetricsNaming naming;
    private final String hostname;
    private final Tags nodeTags;

    /**
     * @param registry   where meters go
     * @param naming     the active naming mode
     * @param hostname   value of the {@code host} label in Nomad mode
     * @param nodeId     the node's ID ({@code node_id})
     * @param datacenter the node's datacenter
     * @param nodeClass  the node's class; empty becomes {@code "none"} as in Nomad
     */
    public BerthMetrics(MeterRegistry registry, MetricsNaming naming, String hostname, String nodeId, String datacenter,
                        String nodeClass) {
        this.registry = Objects.requireNonNull(registry, "'registry' must not be null");
        this.naming = Objects.requireNonNull(naming, "'naming' must not be null");
        this.hostname = Objects.requireNonNull(hostname, "'hostname' must not be null");
        this.nodeTags = Tags.of(
                "node_id", Objects.requireNonNull(nodeId, "'nodeId' must not be null"),
                "datacenter", Objects.requireNonNull(datacenter, "'datacenter' must not be null"),
                "node_class", nodeClass == null || nodeClass.isBlank() ? "none" : nodeClass);
    }

    public MetricsNaming naming() {
        return naming;
    }

    public String hostname() {
        return hostname;
    }

    public MeterRegistry registry() {
        return registry;
    }

    /** Whether {@code metric} has a name in the active mode (i.e. registering it does something). */
    public boolean isEnabled(BerthMetric metric) {
        return metric.nameFor(naming) != null;
    }

    /** The full tag set a meter of this scope gets: the caller's tags plus the mode's automatic labels. */
    public Tags tags(MetricScope scope, Iterable<Tag> tags) {
        Tags result = Tags.of(tags);
        if (naming == MetricsNaming.NOMAD) {
            if (scope == MetricScope.NODE) {
                result = result.and(nodeTags);
            }
            result = result.and("host", hostname);
        }
        return result;
    }

    /**
     * Registers a gauge reading {@code value.applyAsDouble(state)} (in Nomad's unit) on every scrape.
     *
     * @return the gauge, or empty when the metric does not exist in the active mode
     */
    public <T> Optional<Gauge> gauge(BerthMetric metric, MetricScope scope, Iterable<Tag> tags, T state,
                                     ToDoubleFunction<T> value) {
        String name = metric.nameFor(naming);
        if (name == null) {
            return Optional.empty();
        }
        double scale = scale(metric);
        ToDoubleFunction<T> scaled = scale == 1.0 ? value : s -> value.applyAsDouble(s) * scale;
        return Optional.of(Gauge.builder(name, state, scaled)
                .description(description(metric))
                .baseUnit(baseUnit(metric))
                .tags(tags(scope, tags))
                .strongReference(true)
                .register(registry));
    }

    /**
     * Registers a counter that the caller increments. Returns a no-op counter when the metric does not exist in the
     * active mode.
     *
     * @throws IllegalArgumentException if the metric has a Prometheus scale other than 1
     */
    public Counter counter(BerthMetric metric, MetricScope scope, Iterable<Tag> tags) {
        requireUnscaled(metric);
        String name = metric.nameFor(naming);
        if (name == null) {
            return new NoopCounter(new Meter.Id(String.valueOf(metric.name()), Tags.of(tags), null, null, Meter.Type.COUNTER));
        }
        return Counter.builder(name)
                .description(description(metric))
                .baseUnit(baseUnit(metric))
                .tags(tags(scope, tags))
                .register(registry);
    }

    /**
     * Registers a counter whose value is read from a monotonically increasing function of {@code state} (scaled in
     * Prometheus mode).
     *
     * @return the counter, or empty when the metric does not exist in the active mode
     */
    public <T> Optional<FunctionCounter> functionCounter(BerthMetric metric, MetricScope scope, Iterable<Tag> tags,
                                                         T state, ToDoubleFunction<T> value) {
        String name = metric.nameFor(naming);
        if (name == null) {
            return Optional.empty();
        }
        double scale = scale(metric);
        ToDoubleFunction<T> scaled = scale == 1.0 ? value : s -> value.applyAsDouble(s) * scale;
        return Optional.of(FunctionCounter.builder(name, state, scaled)
                .description(description(metric))
                .baseUnit(baseUnit(metric))
                .tags(tags(scope, tags))
                .register(registry));
    }

    /**
     * Registers a timer. Prometheus exposes it in seconds (Nomad's go-metrics used milliseconds; the JSON of
     * {@code /v1/metrics} reports milliseconds). Returns a no-op timer when the metric does not exist in the mode.
     */
    public Timer timer(BerthMetric metric, MetricScope scope, Iterable<Tag> tags) {
        requireUnscaled(metric);
        String name = metric.nameFor(naming);
        if (name == null) {
            return new NoopTimer(new Meter.Id(String.valueOf(metric.name()), Tags.of(tags), null, null, Meter.Type.TIMER));
        }
        return Timer.builder(name)
                .description(description(metric))
                .tags(tags(scope, tags))
                .register(registry);
    }

    /** Removes a meter registered through this helper (no-op for meters that were never registered). */
    public void remove(Meter meter) {
        registry.remove(meter);
    }

    private double scale(BerthMetric metric) {
        return naming == MetricsNaming.PROMETHEUS ? metric.prometheusScale() : 1.0;
    }

    private String baseUnit(BerthMetric metric) {
        // Nomad's names carry no unit suffix; a base unit would make the Prometheus registry append one.
        return naming == MetricsNaming.PROMETHEUS ? metric.baseUnit() : null;
    }

    private String description(BerthMetric metric) {
        // go-metrics writes the metric name as HELP text; keep that in Nomad mode.
        return naming == MetricsNaming.NOMAD || metric.description().isEmpty() ? metric.nameFor(naming) : metric.description();
    }

    private static void requireUnscaled(BerthMetric metric) {
        if (metric.prometheusScale() != 1.0) {
            throw new IllegalArgumentException("counters and timers cannot be scaled; '" + metric.name()
                    + "' has prometheusScale " + metric.prometheusScale());
        }
    }
}
