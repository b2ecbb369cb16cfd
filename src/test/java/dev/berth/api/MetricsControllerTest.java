package dev.berth.api;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.http.HttpStatus;
import org.springframework.web.ErrorResponseException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class MetricsControllerTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Clock clock = Clock.fixed(Instant.parse("2026-11-22T01:02:03.999Z"), ZoneOffset.UTC);

    private MetricsController controller(boolean prometheusEnabled) {
        StaticListableBeanFactory beans = new StaticListableBeanFactory();
        if (prometheusEnabled) {
            beans.addBean("prometheusMeterRegistry", registry);
        }
        return new MetricsController(registry, beans.getBeanProvider(PrometheusMeterRegistry.class), clock);
    }

    @Test
    void jsonSummaryMapsGaugesCountersAndTimersWithLabels() {
        Gauge.builder("nomad.client.host.memory.total", () -> 2048).tags("host", "h1").register(registry);
        Gauge.builder("berth.not.yet", () -> Double.NaN).register(registry);
        Counter.builder("nomad.client.allocs.restart").tags("task", "web").register(registry).increment(3);
        Timer timer = Timer.builder("berth.hook").register(registry);
        timer.record(10, TimeUnit.MILLISECONDS);
        timer.record(30, TimeUnit.MILLISECONDS);

        MetricsResponse summary = controller(true).summary();

        assertThat(summary.timestamp()).isEqualTo("2026-11-22 01:02:03 +0000 UTC");
        assertThat(summary.gauges()).containsExactly(
                new MetricsResponse.GaugeValue("nomad.client.host.memory.total", 2048, Map.of("host", "h1")));
        assertThat(summary.counters()).containsExactly(new MetricsResponse.SampledValue("nomad.client.allocs.restart",
                3, 0, 3, 3, 3, 3, 0, Map.of("task", "web")));
        assertThat(summary.samples()).singleElement().satisfies(sample -> {
            assertThat(sample.name()).isEqualTo("berth.hook");
            assertThat(sample.count()).isEqualTo(2);
            assertThat(sample.sum()).isEqualTo(40.0);
            assertThat(sample.mean()).isEqualTo(20.0);
            assertThat(sample.max()).isEqualTo(30.0);
        });
        assertThat(summary.points()).isEmpty();
    }

    @Test
    void prometheusFormatIsTheRegistryScrape() {
        Gauge.builder("berth.x", () -> 1).register(registry);

        var response = controller(true).metrics("prometheus");
        assertThat(response.getHeaders().getContentType()).isEqualTo(MetricsController.PROMETHEUS_TEXT);
        assertThat((String) response.getBody()).isEqualTo(registry.scrape()).contains("berth_x 1.0");
    }

    @Test
    void prometheusFormatWithoutThePrometheusRegistryIs415LikeNomad() {
        assertThatExceptionOfType(ErrorResponseException.class).isThrownBy(() -> controller(false).metrics("prometheus"))
                .satisfies(e -> {
                    assertThat(e.getStatusCode()).isEqualTo(HttpStatus.UNSUPPORTED_MEDIA_TYPE);
                    assertThat(e.getBody().getDetail()).isEqualTo("Prometheus is not enabled");
                });
    }

    @Test
    void anyOtherFormatIsJsonAsInNomad() {
        assertThat(controller(true).metrics("json").getBody()).isInstanceOf(MetricsResponse.class);
        assertThat(controller(true).metrics(null).getBody()).isInstanceOf(MetricsResponse.class);
    }
}
