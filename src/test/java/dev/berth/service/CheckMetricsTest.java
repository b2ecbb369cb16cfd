package dev.berth.service;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricsNaming;
import dev.berth.support.Promtool;

import static org.assertj.core.api.Assertions.assertThat;

/** Check metrics in both naming modes: results by type and status, latency by type, armed checks by status; promtool-clean. */
class CheckMetricsTest {

    static final List<CheckResult> ARMED = List.of(
            new CheckResult("a", "healthiness", "success", 200, "", 1, "g", "t", "s", "c1"),
            new CheckResult("b", "healthiness", "failure", 0, "", 1, "g", "t", "s", "c2"),
            new CheckResult("c", "readiness", "failure", 0, "", 1, "g", "", "s", "c3"));

    @Test
    void prometheusNaming() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        CheckMetrics metrics = new CheckMetrics(new BerthMetrics(registry, MetricsNaming.PROMETHEUS, "vm", "id", "dc1", ""), ARMED::stream);
        metrics.record("http", "success", TimeUnit.MILLISECONDS.toNanos(3));
        metrics.record("http", "success", TimeUnit.MILLISECONDS.toNanos(5));
        metrics.record("tcp", "failure", TimeUnit.MILLISECONDS.toNanos(1));
        String scrape = registry.scrape();
        assertThat(scrape).contains("berth_service_check_results_total{status=\"success\",type=\"http\"} 2.0")
                .contains("berth_service_check_results_total{status=\"failure\",type=\"tcp\"} 1.0")
                .contains("berth_service_check_duration_seconds_count{type=\"http\"} 2")
                .contains("berth_service_check_duration_seconds_sum{type=\"http\"} 0.008")
                .contains("berth_service_checks{status=\"failure\"} 2.0")
                .contains("berth_service_checks{status=\"success\"} 1.0")
                .contains("berth_service_checks{status=\"pending\"} 0.0")
                .doesNotContain("alloc_id");
        Promtool.Result lint = Promtool.checkMetrics(scrape);
        assertThat(lint.exitCode()).as(lint.output()).isZero();
    }

    @Test
    void nomadNaming() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        CheckMetrics metrics = new CheckMetrics(new BerthMetrics(registry, MetricsNaming.NOMAD, "vm", "id", "dc1", ""), Stream::empty);
        metrics.record("grpc", "success", TimeUnit.MILLISECONDS.toNanos(2));
        String scrape = registry.scrape();
        assertThat(scrape).contains("nomad_client_service_check_results_total{host=\"vm\",status=\"success\",type=\"grpc\"} 1.0")
                .contains("nomad_client_service_check_duration_seconds_count{host=\"vm\",type=\"grpc\"} 1")
                .contains("nomad_client_service_checks{host=\"vm\",status=\"success\"} 0.0")
                .doesNotContain("berth_service");
        Promtool.Result lint = Promtool.checkMetrics(scrape);
        assertThat(lint.exitCode()).as(lint.output()).isZero();
    }
}
