package dev.berth.service;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import dev.berth.config.BerthMetric;
import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricScope;

/**
 * Check metrics in both naming modes, with bounded labels only ({@code type}, {@code status}): probes run by outcome,
 * probe latency by type, and armed checks by current status.
 * <ul>
 *   <li>{@code berth_service_check_results_total{type,status}} / {@code nomad_client_service_check_results}</li>
 *   <li>{@code berth_service_check_duration_seconds{type}} / {@code nomad_client_service_check_duration}</li>
 *   <li>{@code berth_service_checks{status}} / {@code nomad_client_service_checks}</li>
 * </ul>
 */
final class CheckMetrics {

    static final BerthMetric RESULTS = BerthMetric.of("berth.service.check.results", "nomad.client.service.check.results",
            "Service check probes run, by check type and resulting status");
    static final BerthMetric DURATION = BerthMetric.of("berth.service.check.duration", "nomad.client.service.check.duration",
            "Time a service check probe took");
    static final BerthMetric ARMED = BerthMetric.of("berth.service.checks", "nomad.client.service.checks",
            "Armed service checks by current status");

    private final BerthMetrics metrics;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    CheckMetrics(BerthMetrics metrics, Supplier<Stream<CheckResult>> armed) {
        this.metrics = metrics;
        for (String status : new String[] {CheckResult.SUCCESS, CheckResult.FAILURE, CheckResult.PENDING}) {
            metrics.gauge(ARMED, MetricScope.AGENT, Tags.of("status", status), armed,
                    a -> a.get().filter(r -> status.equals(r.status())).count());
        }
    }

    void record(String type, String status, long latencyNanos) {
        counters.computeIfAbsent(type + "/" + status,
                k -> metrics.counter(RESULTS, MetricScope.AGENT, Tags.of("type", type, "status", status))).increment();
        timers.computeIfAbsent(type, k -> metrics.timer(DURATION, MetricScope.AGENT, Tags.of("type", type)))
                .record(latencyNanos, TimeUnit.NANOSECONDS);
    }
}
