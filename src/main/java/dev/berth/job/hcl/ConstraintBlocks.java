package dev.berth.job.hcl;

import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Maps {@code constraint} blocks (job, group or task) to Nomad's {@code Constraints}: {@code LTarget}, {@code RTarget}, {@code Operand}. */
final class ConstraintBlocks {

    private ConstraintBlocks() {
    }

    static void map(JsonNode b, ObjectNode target, JsonMapper json) {
        if (!b.has("constraint")) {
            return;
        }
        ArrayNode out = target.putArray("Constraints");
        JobspecMapping.each(b.get("constraint"), c -> {
            ObjectNode o = json.createObjectNode();
            o.put("LTarget", c.path("attribute").asString(""));
            o.put("RTarget", c.path("value").isNumber() ? JobspecMapping.number(c.get("value")) : c.path("value").asString(""));
            o.put("Operand", c.path("operator").asString("="));
            if (c.has("distinct_hosts")) {
                o.put("Operand", "distinct_hosts");
                o.put("RTarget", c.path("distinct_hosts").asString());
            }
            // the operator written as the argument's name, as Nomad reads it: regexp = "^a" is Operand regexp, RTarget ^a
            for (String op : List.of("version", "semver", "regexp", "set_contains", "set_contains_any", "set_contains_all", "distinct_property")) {
                if (c.has(op)) {
                    o.put("Operand", op);
                    o.put("RTarget", c.path(op).isNumber() ? JobspecMapping.number(c.get(op)) : c.path(op).asString());
                }
            }
            out.add(o);
        });
    }
}
