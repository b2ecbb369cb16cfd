package dev.berth.fingerprint;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Tag;

import org.springframework.stereotype.Component;

import dev.berth.config.BerthMetric;
import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricScope;

/**
 * Node and driver health as gauges (Prometheus naming only; Nomad has no such series): {@code berth_node_ready},
 * {@code berth_driver_detected{driver}} and {@code berth_driver_healthy{driver}}, so an operator can alert on a driver
 * turning unhealthy. Gauges read the registry's current snapshot; a scrape never fingerprints.
 */
@Component
class NodeMetrics implements NodeListener {

    static final BerthMetric NODE_READY = BerthMetric.prometheusOnly("berth.node.ready",
            "1 once the node's first fingerprint completed (status ready), else 0");
    static final BerthMetric DRIVER_DETECTED = BerthMetric.prometheusOnly("berth.driver.detected",
            "1 while the task driver is detected, else 0");
    static final BerthMetric DRIVER_HEALTHY = BerthMetric.prometheusOnly("berth.driver.healthy",
            "1 while the task driver is healthy, else 0");

    private final BerthMetrics metrics;
    private final NodeRegistry registry;
    /** Drivers whose gauges exist; driver names are a small fixed set, so the series are bounded. */
    private final Set<String> registered = ConcurrentHashMap.newKeySet();

    NodeMetrics(BerthMetrics metrics, NodeRegistry registry) {
        this.metrics = metrics;
        this.registry = registry;
        metrics.gauge(NODE_READY, MetricScope.NODE, List.of(), registry,
                r -> r.current().status() == NodeStatus.READY ? 1 : 0);
    }

    @Override
    public void nodeChanged(Node node) {
        for (String driver : node.drivers().keySet()) {
            if (registered.add(driver)) {
                List<Tag> tags = List.of(Tag.of("driver", driver));
                metrics.gauge(DRIVER_DETECTED, MetricScope.NODE, tags, registry, r -> flag(r, driver, true));
                metrics.gauge(DRIVER_HEALTHY, MetricScope.NODE, tags, registry, r -> flag(r, driver, false));
            }
        }
    }

    private static double flag(NodeRegistry registry, String driver, boolean detected) {
        DriverInfo info = registry.current().drivers().get(driver);
        if (info == null) {
            return 0;
        }
        return (detected ? info.detected() : info.healthy()) ? 1 : 0;
    }
}
