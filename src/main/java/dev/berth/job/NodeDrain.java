package dev.berth.job;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import tools.jackson.databind.json.JsonMapper;

import dev.berth.fingerprint.Node;
import dev.berth.fingerprint.NodeEvent;
import dev.berth.fingerprint.NodeRegistry;
import dev.berth.fingerprint.NodeScheduling;
import dev.berth.fingerprint.NodeScheduling.DrainStrategy;
import dev.berth.fingerprint.NodeScheduling.LastDrain;

/**
 * The node's scheduling eligibility and drain, as Nomad's node endpoints change them: an ineligible node gets nothing
 * new from the scheduler; a drain makes the node ineligible and stops its allocations ({@link NodeDrainPlan}, carried
 * out on each scheduler pass). Every change is written onto the {@link Node} (with Nomad's node event) and persisted
 * in the {@link JobStore} with the allocations the drain stopped, so both survive a restart. Serialized on this object.
 */
public class NodeDrain {

    static final String ELIGIBLE_EVENT = "Node marked as eligible for scheduling";
    static final String INELIGIBLE_EVENT = "Node marked as ineligible for scheduling";
    static final String DRAIN_SET = "Node drain strategy set";
    static final String DRAIN_UPDATED = "Node drain strategy updated";
    static final String DRAIN_DISABLED = "Node drain disabled";
    static final String DRAIN_COMPLETE = "Node drain complete";

    /** What the scheduler does for a change: a pass now, and (the node turned eligible) evaluations for its jobs. */
    interface Scheduler {
        void kick();

        /** Creates and kicks one {@code node-update} evaluation per job on this node; returns their IDs. */
        List<String> nodeEvaluations();
    }

    /** What is persisted: the node's scheduling state and the allocations its drains stopped. */
    record Stored(NodeScheduling scheduling, List<String> migrated) {
    }

    /** A drain request: {@code deadline} null cancels the drain (Nomad's {@code DrainSpec: null}). */
    public record DrainRequest(Duration deadline, boolean ignoreSystemJobs, boolean markEligible, Map<String, String> meta) {
    }

    /** Nomad's answer to an eligibility or drain update. */
    public record Update(long nodeModifyIndex, List<String> evalIds, long evalCreateIndex) {
    }

    private final NodeRegistry node;
    private final JobStore store;
    private final Clock clock;
    private final JsonMapper json = JsonMapper.builder().build();
    private final Set<String> migrated = ConcurrentHashMap.newKeySet();
    /** The state this class owns; the node carries a copy from {@link #restore} on. */
    private volatile NodeScheduling state = NodeScheduling.DEFAULT;
    private volatile Scheduler scheduler = new Scheduler() {
        @Override
        public void kick() {
        }

        @Override
        public List<String> nodeEvaluations() {
            return List.of();
        }
    };

    public NodeDrain(NodeRegistry node, JobStore store, Clock clock) {
        this.node = node;
        this.store = store;
        this.clock = clock;
        store.nodeDrain().map(s -> json.readValue(s, Stored.class)).ifPresent(s -> {
            migrated.addAll(s.migrated());
            state = s.scheduling();
        });
    }

    /**
     * Writes the stored state onto the node (at the scheduler's start, not at construction: a node change tells the
     * node's listeners, which may not all exist while the context is being built).
     */
    synchronized void restore() {
        NodeScheduling s = state;
        node.update(n -> n.withScheduling(s));
    }

    void onChange(Scheduler s) {
        this.scheduler = s;
    }

    public NodeScheduling current() {
        return state;
    }

    public boolean eligible() {
        return current().eligible();
    }

    public boolean draining() {
        return current().drain() != null;
    }

    /** Whether a drain stopped the allocation (Nomad's {@code DesiredTransition.Migrate}). */
    public boolean migrated(String allocId) {
        return migrated.contains(allocId);
    }

    /** {@code PUT /v1/node/:id/eligibility}, with Nomad's checks and texts. */
    public synchronized Update setEligibility(String nodeId, String eligibility) throws JobException {
        if (nodeId == null || nodeId.isEmpty()) {
            throw new JobException(JobException.Kind.INVALID, "missing node ID for setting scheduling eligibility");
        }
        if (!NodeScheduling.ELIGIBLE.equals(eligibility) && !NodeScheduling.INELIGIBLE.equals(eligibility)) {
            throw new JobException(JobException.Kind.INVALID, "invalid scheduling eligibility \"" + eligibility + "\"");
        }
        NodeScheduling s = ours(nodeId);
        if (s.drain() != null && NodeScheduling.ELIGIBLE.equals(eligibility)) {
            throw new JobException(JobException.Kind.INVALID, "can not set node's scheduling eligibility to eligible while it is draining");
        }
        String event = s.eligibility().equals(eligibility) ? null
                : NodeScheduling.ELIGIBLE.equals(eligibility) ? ELIGIBLE_EVENT : INELIGIBLE_EVENT;
        Node after = apply(new NodeScheduling(eligibility, s.drain(), s.lastDrain()), "Cluster", event, Map.of());
        return afterChange(after, !s.eligible() && after.scheduling().eligible());
    }

    /** {@code PUT /v1/node/:id/drain}: starts, updates or cancels the drain, with Nomad's node events and {@code LastDrain}. */
    public synchronized Update setDrain(String nodeId, DrainRequest request, String accessorId) throws JobException {
        if (nodeId == null || nodeId.isEmpty()) {
            throw new JobException(JobException.Kind.INVALID, "missing node ID for drain update");
        }
        NodeScheduling s = ours(nodeId);
        Instant now = clock.instant();
        DrainStrategy before = s.drain();
        DrainStrategy next = request.deadline() == null ? null : new DrainStrategy(request.deadline(), request.ignoreSystemJobs(),
                request.deadline().isPositive() ? now.plus(request.deadline()) : null, before == null ? now : before.startedAt());
        String event = before == null && next != null ? DRAIN_SET : before != null && next != null ? DRAIN_UPDATED
                : before != null ? DRAIN_DISABLED : null;
        String eligibility = next != null ? NodeScheduling.INELIGIBLE
                : request.markEligible() ? NodeScheduling.ELIGIBLE : s.eligibility();
        LastDrain last = s.lastDrain();
        if (before != null || next != null) {
            Instant at = now.truncatedTo(ChronoUnit.SECONDS);
            LastDrain base = before == null || last == null ? new LastDrain(LastDrain.DRAINING, at, at, null, "") : last;
            Map<String, String> meta = request.meta() != null && !request.meta().isEmpty() ? request.meta() : base.meta();
            String accessor = accessorId != null && !accessorId.isEmpty() ? accessorId : base.accessorId();
            last = new LastDrain(next != null ? LastDrain.DRAINING : LastDrain.CANCELED, base.startedAt(), at, meta, accessor);
        }
        Node after = apply(new NodeScheduling(eligibility, next, last), "Drain", event, Map.of());
        return afterChange(after, !s.eligible() && request.markEligible() && next == null);
    }

    /** The drain stopped {@code allocId} (before its stop is submitted, so a crash in between cannot lose the mark). */
    synchronized void markMigrated(String allocId) {
        migrated.add(allocId);
        persist(current());
    }

    /** The drain is done: the strategy clears, {@code LastDrain} is complete, the node stays ineligible. */
    synchronized void complete(boolean deadlineReached) {
        NodeScheduling s = current();
        if (s.drain() == null) {
            return;
        }
        Instant at = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        LastDrain l = s.lastDrain();
        LastDrain done = l == null ? new LastDrain(LastDrain.COMPLETE, at, at, null, "")
                : new LastDrain(LastDrain.COMPLETE, l.startedAt(), at, l.meta(), l.accessorId());
        apply(new NodeScheduling(s.eligibility(), null, done), "Drain", DRAIN_COMPLETE,
                deadlineReached ? Map.of("deadline_reached", "true") : Map.of());
    }

    private NodeScheduling ours(String nodeId) throws JobException {
        if (!node.current().id().equals(nodeId)) {
            throw new JobException(JobException.Kind.NOT_FOUND, "node not found");
        }
        return state;
    }

    private Node apply(NodeScheduling next, String subsystem, String event, Map<String, String> details) {
        state = next;
        persist(next);
        Instant now = clock.instant();
        return node.update(n -> {
            Node changed = n.withScheduling(next);
            return event == null ? changed : changed.withEvent(new NodeEvent(event, subsystem, details, now));
        });
    }

    private Update afterChange(Node after, boolean becameEligible) {
        List<String> evals = becameEligible ? scheduler.nodeEvaluations() : List.of();
        scheduler.kick();
        return new Update(after.modifyIndex(), evals.isEmpty() ? null : evals, evals.isEmpty() ? 0 : after.modifyIndex());
    }

    private void persist(NodeScheduling s) {
        store.putNodeDrain(json.writeValueAsString(new Stored(s, List.copyOf(migrated))));
    }
}
