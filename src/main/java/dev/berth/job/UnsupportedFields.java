package dev.berth.job;

import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * Job JSON fields Nomad runs and Berth does not yet (the same blocks the HCL parser refuses, see docs/jobs.md): a job
 * that sets one is refused rather than run without it. Empty or null values, as Nomad's clients send for what is unset,
 * pass.
 */
final class UnsupportedFields {

    private static final Map<String, String> JOB = Map.of("Affinities", "affinity", "Spreads", "spread", "Multiregion", "multiregion");
    private static final Map<String, String> GROUP = Map.of("Affinities", "affinity", "Spreads", "spread");
    private static final Map<String, String> TASK = Map.of("Affinities", "affinity", "Vault", "vault",
            "CSIPluginConfig", "csi_plugin");

    private UnsupportedFields() {
    }

    static void check(JsonNode job, List<String> errors) {
        set(job, JOB).forEach((b) -> errors.add(message(b)));
        for (JsonNode g : job.path("TaskGroups")) {
            String group = g.path("Name").asString("");
            set(g, GROUP).forEach((b) -> errors.add("Task group " + group + " validation failed: " + message(b)));
            for (JsonNode t : g.path("Tasks")) {
                set(t, TASK).forEach((b) -> errors.add("Task group " + group + " validation failed: Task " + t.path("Name").asString("")
                        + " validation failed: " + message(b)));
            }
        }
    }

    private static List<String> set(JsonNode n, Map<String, String> fields) {
        return fields.entrySet().stream().filter((e) -> {
            JsonNode v = n.path(e.getKey());
            return !v.isMissingNode() && !v.isNull() && !((v.isArray() || v.isObject()) && v.isEmpty());
        }).map(Map.Entry::getValue).sorted().toList();
    }

    private static String message(String block) {
        return "\"" + block + "\" is not supported by Berth yet";
    }
}
