package dev.berth.job.hcl;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Berth's exit rules of a {@code restart} block ({@code no_restart_exit_codes}, {@code restart_exit_codes},
 * {@code no_restart_signals}, {@code restart_signals}) as the restart policy's keys. HCL numbers are decimals: a whole
 * one becomes an integer and anything else is left as written, for the policy's validation to refuse.
 */
final class RestartExitRules {

    private static final String[][] KEYS = {{"no_restart_exit_codes", "NoRestartExitCodes"},
            {"restart_exit_codes", "RestartExitCodes"}, {"no_restart_signals", "NoRestartSignals"}, {"restart_signals", "RestartSignals"}};

    private RestartExitRules() {
    }

    static void map(JsonNode block, ObjectNode policy) {
        for (String[] key : KEYS) {
            JsonNode listed = block.get(key[0]);
            if (listed instanceof ArrayNode list) {
                ArrayNode out = policy.putArray(key[1]);
                list.forEach((v) -> out.add(v.isNumber() && v.canConvertToExactIntegral() && v.canConvertToInt() ? out.numberNode(v.asInt()) : v));
            } else if (listed != null) {
                policy.set(key[1], listed);
            }
        }
    }
}
