package dev.berth.alloc;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.berth.alloc.hooks.MigrateHook;
import dev.berth.alloc.hooks.PrevAllocWatcher;
import dev.berth.config.BerthMetric;
import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricScope;

/** Wires the previous-alloc watcher and migrate hook, and their {@code allocations.blocked/migrating} gauges. */
@Configuration(proxyBeanMethods = false)
public class MigrationConfiguration {

    public static final BerthMetric BLOCKED = BerthMetric.of("berth.client.allocations.blocked", "nomad.client.allocations.blocked",
            "Allocations waiting for their previous allocation to terminate");
    public static final BerthMetric MIGRATING = BerthMetric.of("berth.client.allocations.migrating", "nomad.client.allocations.migrating",
            "Allocations moving their previous allocation's data");

    /** Looks runners up lazily: the manager's own hook list contains the migrate hook. */
    @Bean
    PrevAllocWatcher prevAllocWatcher(ObjectProvider<AllocManager> manager) {
        return new PrevAllocWatcher(id -> Optional.ofNullable(manager.getIfAvailable()).flatMap(m -> m.runnerFor(id)),
                Duration.ofMillis(100));
    }

    @Bean
    MigrateHook migrateHook(PrevAllocWatcher watcher, Clock clock, BerthMetrics metrics) {
        MigrateHook hook = new MigrateHook(watcher, clock);
        metrics.gauge(BLOCKED, MetricScope.NODE, List.of(), watcher, PrevAllocWatcher::waiting);
        metrics.gauge(MIGRATING, MetricScope.NODE, List.of(), hook, MigrateHook::migrating);
        return hook;
    }
}
