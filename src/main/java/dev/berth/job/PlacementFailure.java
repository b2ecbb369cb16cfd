package dev.berth.job;

import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Nomad's {@code AllocMetric} of a group that could not be placed on this node, as an evaluation's {@code FailedTGAllocs}. */
final class PlacementFailure {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private PlacementFailure() {
    }

    /** The node filtered the group out by constraint {@code constraint}. */
    static ObjectNode infeasible(String constraint) {
        return metric(1, 1, F.objectNode().put(constraint, 1), 0, F.objectNode());
    }

    /** The node was evaluated but its resources are exhausted. */
    static ObjectNode exhausted() {
        return metric(1, 0, F.objectNode(), 1, F.objectNode().put("resources", 1));
    }

    /** The node is not eligible for scheduling: no node was evaluated, none is available in its datacenter. */
    static ObjectNode noEligibleNode(String datacenter) {
        ObjectNode m = metric(0, 0, F.objectNode(), 0, F.objectNode());
        m.set("NodesAvailable", F.objectNode().put(datacenter, 0));
        return m;
    }

    private static ObjectNode metric(int evaluated, int filtered, ObjectNode constraints, int exhausted, ObjectNode dimensions) {
        ObjectNode m = F.objectNode();
        m.put("NodesEvaluated", evaluated);
        m.put("NodesFiltered", filtered);
        m.set("ConstraintFiltered", constraints);
        m.put("NodesExhausted", exhausted);
        m.set("DimensionExhausted", dimensions);
        m.put("CoalescedFailures", 0);
        return m;
    }
}
