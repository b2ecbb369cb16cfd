package dev.berth.fingerprint;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * Whether the scheduler may place work on the node, and its drain (Nomad's {@code SchedulingEligibility},
 * {@code DrainStrategy} and {@code LastDrain} of a node).
 *
 * @param eligibility {@link #ELIGIBLE} or {@link #INELIGIBLE}
 * @param drain       the drain under way, else null
 * @param lastDrain   the newest drain, running or finished, else null
 */
public record NodeScheduling(String eligibility, DrainStrategy drain, LastDrain lastDrain) {

    public static final String ELIGIBLE = "eligible";
    public static final String INELIGIBLE = "ineligible";
    /** A node that never was drained nor marked ineligible. */
    public static final NodeScheduling DEFAULT = new NodeScheduling(ELIGIBLE, null, null);

    public NodeScheduling {
        if (!ELIGIBLE.equals(eligibility) && !INELIGIBLE.equals(eligibility)) {
            throw new IllegalArgumentException("'eligibility' must be eligible or ineligible, was '" + eligibility + "'");
        }
    }

    public boolean eligible() {
        return ELIGIBLE.equals(eligibility);
    }

    /**
     * A drain (Nomad's {@code DrainStrategy}, its {@code DrainSpec} flattened in).
     *
     * @param deadline         how long allocations may run before they are stopped: negative forces the drain now, zero
     *                         waits without end
     * @param ignoreSystemJobs system jobs' allocations keep running
     * @param forceDeadline    {@code startedAt + deadline} for a positive deadline, else null
     * @param startedAt        when the drain started (kept when the drain is updated)
     */
    public record DrainStrategy(Duration deadline, boolean ignoreSystemJobs, Instant forceDeadline, Instant startedAt) {
        public DrainStrategy {
            Objects.requireNonNull(deadline, "'deadline' must not be null");
            Objects.requireNonNull(startedAt, "'startedAt' must not be null");
        }

        /** Whether every allocation left must be stopped at {@code now}: a forced drain, or one past its deadline. */
        public boolean deadlined(Instant now) {
            return deadline.isNegative() || forceDeadline != null && !now.isBefore(forceDeadline);
        }
    }

    /**
     * The newest drain (Nomad's {@code DrainMetadata}).
     *
     * @param status     {@code draining}, {@code complete} or {@code canceled}
     * @param accessorId the ACL token accessor of the last request that changed the drain ("" without ACLs)
     */
    public record LastDrain(String status, Instant startedAt, Instant updatedAt, Map<String, String> meta, String accessorId) {
        public static final String DRAINING = "draining";
        public static final String COMPLETE = "complete";
        public static final String CANCELED = "canceled";

        public LastDrain {
            meta = meta == null ? null : Map.copyOf(meta);
            accessorId = accessorId == null ? "" : accessorId;
        }
    }
}
