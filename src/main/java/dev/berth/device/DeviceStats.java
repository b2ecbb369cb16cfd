package dev.berth.device;

import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The statistics of one device instance at one time (Nomad {@code DeviceStats}).
 *
 * @param summary   the headline value (for a GPU: memory used/total)
 * @param stats     every statistic
 * @param timestamp when it was measured (an RFC 3339 string on the wire, as Nomad's {@code time.Time})
 */
public record DeviceStats(
        @JsonProperty("Summary") StatValue summary,
        @JsonProperty("Stats") StatObject stats,
        @JsonProperty("Timestamp") Instant timestamp) {
}
