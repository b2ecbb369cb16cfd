package dev.berth.stats;

import java.time.Clock;

import oshi.SystemInfo;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.berth.config.BerthMetrics;
import dev.berth.config.BerthProperties;

/** Host stats: OSHI source → collector (ticking) → listeners (host gauges). */
@Configuration(proxyBeanMethods = false)
class HostStatsConfiguration {

    @Bean
    OshiHostStatsSource hostStatsSource(SystemInfo systemInfo) {
        return new OshiHostStatsSource(systemInfo);
    }

    @Bean
    HostMetrics hostMetrics(BerthMetrics metrics) {
        return new HostMetrics(metrics);
    }

    @Bean
    HostStatsCollector hostStatsCollector(HostStatsSource source, Clock clock, BerthProperties properties,
                                          ObjectProvider<HostStatsListener> listeners) {
        return new HostStatsCollector(source, clock, HostStatsTicker.singleThread("berth-host-stats"),
                properties.telemetry().collectionInterval(), properties.allocDir(), listeners.orderedStream().toList());
    }
}
