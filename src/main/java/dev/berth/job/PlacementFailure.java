package dev.berth.job;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** Nomad's {@code AllocMetric} of a placement that failed on this node: filtered by a constraint, or out of resources. */
final class PlacementFailure {

    private PlacementFailure() {
    }

    static ObjectNode of(JsonMapper json, JobPlan.Place place, boolean infeasible) {
        ObjectNode m = json.createObjectNode();
        m.put("NodesEvaluated", 1);
        m.put("NodesFiltered", infeasible ? 1 : 0);
        ObjectNode filtered = json.createObjectNode();
        if (infeasible) {
            filtered.put(place.infeasible(), 1);
        }
        m.set("ConstraintFiltered", filtered);
        m.put("NodesExhausted", infeasible ? 0 : 1);
        m.set("DimensionExhausted", infeasible ? json.createObjectNode() : json.createObjectNode().put("resources", 1));
        m.put("CoalescedFailures", 0);
        return m;
    }
}
