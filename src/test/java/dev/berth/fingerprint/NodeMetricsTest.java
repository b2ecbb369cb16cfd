package dev.berth.fingerprint;

import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricsNaming;

import static org.assertj.core.api.Assertions.assertThat;

class NodeMetricsTest {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final NodeRegistry registry = TestNodes.registry(Clock.fixed(TestNodes.T0, ZoneOffset.UTC));

    private double gauge(String name, String driver) {
        var search = meters.find(name);
        if (driver != null) {
            search = search.tag("driver", driver);
        }
        return search.gauge().value();
    }

    @Test
    void nodeReadinessAndDriverHealthAreGauges() throws Exception {
        NodeMetrics metrics = new NodeMetrics(new BerthMetrics(meters, MetricsNaming.PROMETHEUS, "vm", "id", "dc1", ""),
                registry);
        registry.subscribe(metrics);
        assertThat(gauge("berth.node.ready", null)).isZero();

        registry.update(n -> n.withDriver("raw_exec", new DriverInfo(Map.of(), true, false, "starting", TestNodes.T0)));
        assertThat(gauge("berth.driver.detected", "raw_exec")).isEqualTo(1);
        assertThat(gauge("berth.driver.healthy", "raw_exec")).isZero();

        registry.update(n -> n.withDriver("raw_exec", new DriverInfo(Map.of(), true, true, "Healthy", TestNodes.T0)));
        registry.markReady();
        assertThat(gauge("berth.driver.healthy", "raw_exec")).isEqualTo(1);
        assertThat(gauge("berth.node.ready", null)).isEqualTo(1);
        assertThat(meters.find("berth.driver.healthy").gauges()).hasSize(1);
    }

    @Test
    void nomadNamingHasNoSuchSeries() {
        NodeMetrics metrics = new NodeMetrics(new BerthMetrics(meters, MetricsNaming.NOMAD, "vm", "id", "dc1", ""), registry);
        registry.subscribe(metrics);
        registry.update(n -> n.withDriver("raw_exec", new DriverInfo(Map.of(), true, true, "Healthy", TestNodes.T0)));

        assertThat(meters.getMeters()).isEmpty();
    }
}
