package dev.berth.job.hcl;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code update} block as Nomad's {@code UpdateStrategy}, and the {@code migrate} block as its
 * {@code MigrateStrategy} (whose four settings, {@code max_parallel}, {@code health_check}, {@code min_healthy_time} and
 * {@code healthy_deadline}, are named as update's). Only the settings written are set; canonicalization fills the rest.
 */
final class UpdateBlocks {

    private UpdateBlocks() {
    }

    static ObjectNode update(JsonNode u, JsonMapper json) {
        ObjectNode o = json.createObjectNode();
        for (String[] d : new String[][] {{"stagger", "Stagger"}, {"min_healthy_time", "MinHealthyTime"},
                {"healthy_deadline", "HealthyDeadline"}, {"progress_deadline", "ProgressDeadline"}}) {
            if (u.has(d[0])) {
                o.put(d[1], JobspecMapping.nanos(u.get(d[0])));
            }
        }
        if (u.has("max_parallel")) {
            o.put("MaxParallel", u.path("max_parallel").asInt());
        }
        if (u.has("health_check")) {
            o.put("HealthCheck", u.path("health_check").asString());
        }
        if (u.has("auto_revert")) {
            o.put("AutoRevert", u.path("auto_revert").asBoolean());
        }
        if (u.has("canary")) {
            o.put("Canary", u.path("canary").asInt());
        }
        if (u.has("auto_promote")) {
            o.put("AutoPromote", u.path("auto_promote").asBoolean());
        }
        return o;
    }
}
