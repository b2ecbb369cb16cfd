package dev.berth.api;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Nomad's {@code GET /v1/metrics} JSON ({@code go-metrics MetricsSummary}). Unlike Nomad's 10-second in-memory
 * intervals, values here are the registry's current ones: counters and timers are cumulative since the agent started.
 */
record MetricsResponse(
        @JsonProperty("Timestamp") String timestamp,
        @JsonProperty("Gauges") List<GaugeValue> gauges,
        @JsonProperty("Points") List<Object> points,
        @JsonProperty("Counters") List<SampledValue> counters,
        @JsonProperty("Samples") List<SampledValue> samples) {

    record GaugeValue(@JsonProperty("Name") String name, @JsonProperty("Value") double value,
                      @JsonProperty("Labels") Map<String, String> labels) {
    }

    /** go-metrics {@code SampledValue}; {@code Rate} and {@code Stddev} are not tracked by Micrometer and are 0. */
    record SampledValue(@JsonProperty("Name") String name, @JsonProperty("Count") long count,
                        @JsonProperty("Rate") double rate, @JsonProperty("Sum") double sum,
                        @JsonProperty("Min") double min, @JsonProperty("Max") double max,
                        @JsonProperty("Mean") double mean, @JsonProperty("Stddev") double stddev,
                        @JsonProperty("Labels") Map<String, String> labels) {
    }
}
