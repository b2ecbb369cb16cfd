package dev.berth.alloc.gc;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import dev.berth.config.BerthMetric;
import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricScope;

/**
 * GC meters (operators asked Nomad for them: hashicorp/nomad#3216): runs, allocations destroyed (by reason), bytes
 * freed, failures. Nomad exports no GC metrics, so the {@code nomad.client.gc.*} names of Nomad mode are Berth
 * extensions.
 */
public final class GcMetrics {

    static final BerthMetric RUNS = BerthMetric.of("berth.client.gc.runs", "nomad.client.gc.runs", "Garbage-collection passes");
    static final BerthMetric DESTROYED = BerthMetric.of("berth.client.gc.allocs.destroyed", "nomad.client.gc.allocs.destroyed",
            "Terminal allocations destroyed by the garbage collector");
    static final BerthMetric FREED = BerthMetric.of("berth.client.gc.freed", "nomad.client.gc.freed.bytes",
            "Bytes of allocation directories removed by the garbage collector").withBaseUnit("bytes");
    static final BerthMetric FAILURES = BerthMetric.of("berth.client.gc.failures", "nomad.client.gc.failures",
            "Garbage-collection passes or destroys that failed");

    private final Counter runs;
    private final BerthMetrics metrics;
    private final Counter freed;
    private final Counter failures;

    public GcMetrics(BerthMetrics metrics) {
        this.metrics = metrics;
        this.runs = metrics.counter(RUNS, MetricScope.NODE, java.util.List.of());
        this.freed = metrics.counter(FREED, MetricScope.NODE, java.util.List.of());
        this.failures = metrics.counter(FAILURES, MetricScope.NODE, java.util.List.of());
    }

    void run() {
        runs.increment();
    }

    void destroyed(GcReason reason, long bytes) {
        metrics.counter(DESTROYED, MetricScope.NODE, java.util.List.of(io.micrometer.core.instrument.Tag.of("reason", reason.label())))
                .increment();
        freed.increment(bytes);
    }

    void failed() {
        failures.increment();
    }

    MeterRegistry registry() {
        return metrics.registry();
    }
}
