package dev.berth.config;

import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.noop.NoopCounter;
import io.micrometer.core.instrument.noop.NoopTimer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class BerthMetricsTest {

    private static final BerthMetric MEMORY = BerthMetric.of("berth.host.memory.total", "nomad.client.host.memory.free",
            "Total memory").withBaseUnit("bytes");
    private static final BerthMetric BUSY = BerthMetric.of("berth.host.cpu.busy", "nomad.client.host.cpu.total_percent",
            "Busy share").percentAsRatio();
    private static final BerthMetric RESTARTS = BerthMetric.of("berth.task.restarts", "nomad.client.allocs.restart",
            "Task restarts");

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    private BerthMetrics metrics(MetricsNaming naming, String nodeClass) {
        return new BerthMetrics(registry, naming, "node1", "0b5e-id", "dc1", nodeClass);
    }

    @Test
    void prometheusModeAppendsTheBaseUnitScalesPercentToRatioAndAddsNoNodeLabels() {
        BerthMetrics metrics = metrics(MetricsNaming.PROMETHEUS, "");
        metrics.gauge(MEMORY, MetricScope.NODE, Tags.empty(), new AtomicLong(2048), AtomicLong::doubleValue);
        metrics.gauge(BUSY, MetricScope.NODE, Tags.of("cpu", "cpu0"), new AtomicLong(25), AtomicLong::doubleValue);
        metrics.counter(RESTARTS, MetricScope.TASK, Tags.of("task", "web")).increment(3);

        String text = registry.scrape();
        assertThat(text).contains("# HELP berth_host_memory_total_bytes Total memory")
                .contains("# TYPE berth_host_memory_total_bytes gauge")
                .contains("berth_host_memory_total_bytes 2048.0")
                .contains("berth_host_cpu_busy_ratio{cpu=\"cpu0\"} 0.25")
                .contains("# TYPE berth_task_restarts_total counter")
                .contains("berth_task_restarts_total{task=\"web\"} 3.0")
                .doesNotContain("host=").doesNotContain("node_id");
    }

    @Test
    void nomadModeUsesNomadsNamesUnscaledWithHostOnEverythingAndNodeLabelsOnNodeMetrics() {
        BerthMetrics metrics = metrics(MetricsNaming.NOMAD, "");
        metrics.gauge(MEMORY, MetricScope.NODE, Tags.empty(), new AtomicLong(2048), AtomicLong::doubleValue);
        metrics.gauge(BUSY, MetricScope.NODE, Tags.of("cpu", "cpu0"), new AtomicLong(25), AtomicLong::doubleValue);
        metrics.counter(RESTARTS, MetricScope.TASK, Tags.of("task", "web")).increment();

        String text = registry.scrape();
        assertThat(text)
                .contains("# HELP nomad_client_host_memory_free nomad.client.host.memory.free")
                .contains("nomad_client_host_memory_free{datacenter=\"dc1\",host=\"node1\",node_class=\"none\",node_id=\"0b5e-id\"} 2048.0")
                .contains("nomad_client_host_cpu_total_percent{cpu=\"cpu0\",datacenter=\"dc1\",host=\"node1\",node_class=\"none\",node_id=\"0b5e-id\"} 25.0")
                .contains("nomad_client_allocs_restart_total{host=\"node1\",task=\"web\"} 1.0")
                .doesNotContain("berth_");
    }

    @Test
    void aNonEmptyNodeClassIsKept() {
        metrics(MetricsNaming.NOMAD, "gpu").gauge(MEMORY, MetricScope.NODE, Tags.empty(), new AtomicLong(1), AtomicLong::doubleValue);

        assertThat(registry.scrape()).contains("node_class=\"gpu\"");
    }

    @Test
    void metricsWithoutANameInTheModeAreNotRegistered() {
        BerthMetric nomadOnly = BerthMetric.nomadOnly("nomad.client.host.cpu.total_ticks_count");
        BerthMetric prometheusOnly = BerthMetric.prometheusOnly("berth.collector.runs", "Collector runs");
        BerthMetrics prometheus = metrics(MetricsNaming.PROMETHEUS, "");

        assertThat(prometheus.isEnabled(nomadOnly)).isFalse();
        assertThat(prometheus.gauge(nomadOnly, MetricScope.NODE, Tags.empty(), new AtomicLong(), AtomicLong::doubleValue)).isEmpty();
        Counter counter = prometheus.counter(nomadOnly, MetricScope.NODE, Tags.empty());
        counter.increment(); // callers never branch on the mode
        assertThat(counter).isInstanceOf(NoopCounter.class);
        Timer timer = metrics(MetricsNaming.NOMAD, "").timer(prometheusOnly, MetricScope.AGENT, Tags.empty());
        assertThat(timer).isInstanceOf(NoopTimer.class);
        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void theSameMetricAndTagsGiveTheSameMeterAndRemoveDeletesIt() {
        BerthMetrics metrics = metrics(MetricsNaming.PROMETHEUS, "");
        Counter first = metrics.counter(RESTARTS, MetricScope.TASK, Tags.of("task", "a"));
        assertThat(metrics.counter(RESTARTS, MetricScope.TASK, Tags.of("task", "a"))).isSameAs(first);

        metrics.remove(first);
        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void scaledCountersAreRejectedAndNamesMustCarryTheirPrefix() {
        BerthMetrics metrics = metrics(MetricsNaming.PROMETHEUS, "");
        assertThatIllegalArgumentException().isThrownBy(() -> metrics.counter(BUSY, MetricScope.NODE, Tags.empty()));
        assertThatIllegalArgumentException().isThrownBy(() -> BerthMetric.of("host.memory", "nomad.x", ""));
        assertThatIllegalArgumentException().isThrownBy(() -> BerthMetric.of("berth.x", "client.x", ""));
        assertThatIllegalArgumentException().isThrownBy(() -> new BerthMetric(null, null, null, "", 1));
    }
}
