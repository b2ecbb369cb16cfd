package dev.berth.state;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import dev.berth.config.BerthMetric;
import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricScope;

/** Publishes whether this start quarantined a damaged state database ({@link StateDatabaseGuard}). */
@Configuration(proxyBeanMethods = false)
class StateGuardMetrics {

    /** Berth's own metric (Nomad refuses to start instead), so absent in {@code nomad} naming mode. */
    static final BerthMetric QUARANTINED = BerthMetric.prometheusOnly("berth.state.quarantined",
            "1 when the state database was found damaged at start-up and quarantined (see the log), else 0");

    @Bean
    MeterBinder stateQuarantineMetrics(Environment env, BerthMetrics metrics) {
        double value = env.getProperty(StateDatabaseGuard.QUARANTINED_PROPERTY) == null ? 0 : 1;
        return registry -> metrics.gauge(QUARANTINED, MetricScope.NODE, Tags.empty(), value, v -> v);
    }
}
