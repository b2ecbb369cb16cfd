package dev.berth.state;

import java.util.Map;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import dev.berth.config.BerthMetric;
import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricScope;
import dev.berth.fingerprint.NodeRegistry;

/**
 * Publishes whether this start quarantined a damaged state database ({@link StateDatabaseGuard}): a gauge, and a node
 * event (subsystem {@code State}) once the application has started.
 */
@Configuration(proxyBeanMethods = false)
class StateGuardMetrics {

    /** Berth's own metric (Nomad refuses to start instead), so absent in {@code nomad} naming mode. */
    static final BerthMetric QUARANTINED = BerthMetric.prometheusOnly("berth.state.quarantined",
            "1 when the state database was found damaged at start-up and quarantined (see the log), else 0");

    @Bean
    ApplicationListener<ApplicationStartedEvent> stateQuarantineNodeEvent(Environment env, ObjectProvider<NodeRegistry> nodes) {
        return event -> {
            String file = env.getProperty(StateDatabaseGuard.QUARANTINED_PROPERTY);
            NodeRegistry registry = nodes.getIfAvailable();
            if (file != null && registry != null) {
                registry.addEvent("State", "State database was damaged and quarantined; started with an empty state",
                        Map.of("quarantined_file", file));
            }
        };
    }

    @Bean
    MeterBinder stateQuarantineMetrics(Environment env, BerthMetrics metrics) {
        double value = env.getProperty(StateDatabaseGuard.QUARANTINED_PROPERTY) == null ? 0 : 1;
        return registry -> metrics.gauge(QUARANTINED, MetricScope.NODE, Tags.empty(), value, v -> v);
    }
}
