package dev.berth.config;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import org.springframework.boot.micrometer.metrics.autoconfigure.MeterRegistryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires {@link BerthMetrics} and, in Nomad naming mode, the {@code host} label on every meter (JVM ones too). */
@Configuration(proxyBeanMethods = false)
class MetricsConfiguration {

    @Bean
    BerthMetrics berthMetrics(MeterRegistry registry, BerthProperties properties, NodeIdentity nodeIdentity) {
        return new BerthMetrics(registry, properties.metrics().naming(), Hostnames.local(), nodeIdentity.id(),
                properties.datacenter(), properties.nodeClass());
    }

    /** Renames/drops the few built-in meters that {@code promtool check metrics} rejects (see the class). */
    @Bean
    MeterFilter berthPrometheusLintFilter() {
        return new PrometheusLintMeterFilter();
    }

    /** In Nomad naming, Nomad's {@code .total} gauges keep their suffix (see {@link NomadTotalNames}). */
    @Bean
    MeterRegistryCustomizer<PrometheusMeterRegistry> berthNomadTotalNames(BerthProperties properties) {
        return registry -> {
            if (properties.metrics().naming() == MetricsNaming.NOMAD) {
                registry.getPrometheusRegistry().register(new NomadTotalNames(registry));
            }
        };
    }

    /** Nomad puts {@code host=<hostname>} on every metric; Boot applies MeterFilter beans to its registries. */
    @Bean
    MeterFilter berthHostLabelFilter(BerthProperties properties) {
        if (properties.metrics().naming() != MetricsNaming.NOMAD) {
            return MeterFilter.commonTags(Tags.empty());
        }
        return MeterFilter.commonTags(Tags.of("host", Hostnames.local()));
    }
}
