package dev.berth.api;

import java.time.Instant;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

import dev.berth.fingerprint.NodeScheduling;

/** A node's drain in Nomad's shapes: {@code DrainStrategy} (its {@code DrainSpec} flattened in) and {@code LastDrain}. */
final class NodeDrainJson {

    private NodeDrainJson() {
    }

    /** Nomad's {@code DrainStrategy}: {@code Deadline} in nanoseconds, times in RFC 3339 (the zero time when unset). */
    @JsonNaming(PropertyNamingStrategies.UpperCamelCaseStrategy.class)
    record Strategy(long deadline, boolean ignoreSystemJobs, String forceDeadline, String startedAt) {
        static Strategy of(NodeScheduling.DrainStrategy d) {
            return d == null ? null : new Strategy(d.deadline().toNanos(), d.ignoreSystemJobs(), time(d.forceDeadline()),
                    time(d.startedAt()));
        }
    }

    /** Nomad's {@code DrainMetadata}. */
    @JsonNaming(PropertyNamingStrategies.UpperCamelCaseStrategy.class)
    record Last(String startedAt, String updatedAt, String status, @JsonProperty("AccessorID") String accessorId,
                Map<String, String> meta) {
        static Last of(NodeScheduling.LastDrain l) {
            return l == null ? null : new Last(time(l.startedAt()), time(l.updatedAt()), l.status(), l.accessorId(), l.meta());
        }
    }

    static String time(Instant t) {
        return t == null ? AllocationDtos.ZERO_TIME : t.toString();
    }
}
