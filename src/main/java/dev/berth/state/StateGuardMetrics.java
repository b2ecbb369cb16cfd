package dev.berth.state;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/** Publishes whether this start quarantined a damaged state database ({@link StateDatabaseGuard}). */
@Configuration(proxyBeanMethods = false)
class StateGuardMetrics {

    @Bean
    MeterBinder stateQuarantineMetrics(Environment env) {
        String file = env.getProperty(StateDatabaseGuard.QUARANTINED_PROPERTY);
        return registry -> Gauge.builder("berth.state.quarantined", () -> file == null ? 0 : 1)
                .description("1 when the state database was found damaged at start-up and quarantined (see the log), else 0")
                .register(registry);
    }
}
