package dev.berth.device;

import java.time.Instant;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The statistics of one device instance at one time (Nomad {@code DeviceStats}).
 *
 * @param summary   the headline value (for a GPU: memory used/total)
 * @param stats     every statistic
 * @param timestamp when it was measured (an RFC 3339 string on the wire, as Nomad's {@code time.Time})
 * @param processes the processes the plugin saw on the instance (not in the JSON; empty when the plugin does not tell)
 */
public record DeviceStats(
        @JsonProperty("Summary") StatValue summary,
        @JsonProperty("Stats") StatObject stats,
        @JsonProperty("Timestamp") Instant timestamp,
        @JsonIgnore List<DeviceProcess> processes) {

    public DeviceStats {
        processes = processes == null ? List.of() : List.copyOf(processes);
    }

    public DeviceStats(StatValue summary, StatObject stats, Instant timestamp) {
        this(summary, stats, timestamp, List.of());
    }

    /** The same statistics with {@code more} attributes added (a task's or the allocation's view of the instance). */
    public DeviceStats withAttributes(java.util.Map<String, StatValue> more) {
        if (more.isEmpty()) {
            return this;
        }
        java.util.Map<String, StatValue> attributes = new java.util.LinkedHashMap<>();
        if (stats != null && stats.attributes() != null) {
            attributes.putAll(stats.attributes());
        }
        attributes.putAll(more);
        return new DeviceStats(summary, new StatObject(stats == null ? null : stats.nested(), attributes), timestamp, processes);
    }
}
