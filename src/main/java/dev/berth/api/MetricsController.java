package dev.berth.api;

import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/metrics}: Nomad's JSON summary built from the meter registry, or with {@code ?format=prometheus}
 * the same Prometheus text exposition as {@code /actuator/prometheus}. Reads meters only; never collects.
 */
@RestController
class MetricsController {

    static final MediaType PROMETHEUS_TEXT = MediaType.parseMediaType("text/plain;version=0.0.4;charset=utf-8");
    /** Go's {@code time.Time.String()} for a UTC time, which Nomad writes as the interval's timestamp. */
    private static final DateTimeFormatter GO_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss '+0000 UTC'")
            .withZone(ZoneOffset.UTC);

    private final MeterRegistry registry;
    private final ObjectProvider<PrometheusMeterRegistry> prometheus;
    private final Clock clock;

    MetricsController(MeterRegistry registry, ObjectProvider<PrometheusMeterRegistry> prometheus, Clock clock) {
        this.registry = registry;
        this.prometheus = prometheus;
        this.clock = clock;
    }

    @GetMapping("/v1/metrics")
    ResponseEntity<?> metrics(@RequestParam(name = "format", required = false) String format) {
        if ("prometheus".equals(format)) {
            PrometheusMeterRegistry prometheusRegistry = prometheus.getIfAvailable();
            if (prometheusRegistry == null) {
                // Nomad's answer when telemetry.prometheus_metrics is off
                throw new ErrorResponseException(HttpStatus.UNSUPPORTED_MEDIA_TYPE,
                        ProblemDetail.forStatusAndDetail(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Prometheus is not enabled"),
                        null);
            }
            return ResponseEntity.ok().contentType(PROMETHEUS_TEXT).body(prometheusRegistry.scrape());
        }
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(summary());
    }

    MetricsResponse summary() {
        List<MetricsResponse.GaugeValue> gauges = new ArrayList<>();
        List<MetricsResponse.SampledValue> counters = new ArrayList<>();
        List<MetricsResponse.SampledValue> samples = new ArrayList<>();
        List<Meter> meters = new ArrayList<>(registry.getMeters());
        meters.sort(Comparator.comparing((Meter m) -> m.getId().getName()).thenComparing(m -> m.getId().getTags().toString()));
        for (Meter meter : meters) {
            String name = meter.getId().getName();
            Map<String, String> labels = labels(meter);
            switch (meter) {
                case TimeGauge g -> addGauge(gauges, name, g.value(TimeUnit.MILLISECONDS), labels);
                case Gauge g -> addGauge(gauges, name, g.value(), labels);
                case Counter c -> counters.add(cumulative(name, c.count(), labels));
                case FunctionCounter c -> counters.add(cumulative(name, c.count(), labels));
                case Timer t -> samples.add(new MetricsResponse.SampledValue(name, t.count(), 0,
                        t.totalTime(TimeUnit.MILLISECONDS), 0, t.max(TimeUnit.MILLISECONDS),
                        t.mean(TimeUnit.MILLISECONDS), 0, labels));
                case FunctionTimer t -> samples.add(new MetricsResponse.SampledValue(name, (long) t.count(), 0,
                        t.totalTime(TimeUnit.MILLISECONDS), 0, 0, t.mean(TimeUnit.MILLISECONDS), 0, labels));
                case DistributionSummary s -> samples.add(new MetricsResponse.SampledValue(name, s.count(), 0,
                        s.totalAmount(), 0, s.max(), s.mean(), 0, labels));
                case LongTaskTimer t -> addGauge(gauges, name + ".active", t.activeTasks(), labels);
                default -> {
                    for (Measurement measurement : meter.measure()) {
                        Map<String, String> withStatistic = new LinkedHashMap<>(labels);
                        withStatistic.put("statistic", measurement.getStatistic().getTagValueRepresentation());
                        addGauge(gauges, name, measurement.getValue(), withStatistic);
                    }
                }
            }
        }
        String timestamp = GO_TIME.format(clock.instant().truncatedTo(ChronoUnit.SECONDS));
        return new MetricsResponse(timestamp, gauges, List.of(), counters, samples);
    }

    private static void addGauge(List<MetricsResponse.GaugeValue> gauges, String name, double value,
                                 Map<String, String> labels) {
        // JSON has no NaN; a gauge without a value yet is left out rather than sent as a bogus 0.
        if (Double.isFinite(value)) {
            gauges.add(new MetricsResponse.GaugeValue(name, value, labels));
        }
    }

    private static MetricsResponse.SampledValue cumulative(String name, double value, Map<String, String> labels) {
        return new MetricsResponse.SampledValue(name, Math.round(value), 0, value, value, value, value, 0, labels);
    }

    private static Map<String, String> labels(Meter meter) {
        Map<String, String> labels = new LinkedHashMap<>();
        meter.getId().getTags().forEach(tag -> labels.put(tag.getKey(), tag.getValue()));
        return labels;
    }
}
