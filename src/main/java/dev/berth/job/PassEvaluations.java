package dev.berth.job;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The evaluations of the scheduler's passes, per job: the kicked one a pass finishes, and the blocked one that waits
 * for allocations this node cannot place yet (Nomad's blocked evaluation, finished by the pass that places them).
 */
final class PassEvaluations {

    static final String BLOCKED_DESCRIPTION = "created to place remaining allocations";

    private final JobRegistry jobs;
    private final JsonMapper json = JsonMapper.builder().build();
    /** Per job key: the open eval waiting for the next pass, and the blocked eval, if any. */
    private final Map<String, String> pending = new ConcurrentHashMap<>();
    private final Map<String, String> blocked = new ConcurrentHashMap<>();

    PassEvaluations(JobRegistry jobs) {
        this.jobs = jobs;
        for (ObjectNode e : jobs.evals()) {
            if ("blocked".equals(e.path("Status").asString())) {
                blocked.put(JobRegistry.key(e.path("Namespace").asString(), e.path("JobID").asString()), e.path("ID").asString());
            }
        }
    }

    /** The next pass finishes {@code evalId}. */
    void kicked(String key, String evalId) {
        pending.put(key, evalId);
    }

    /** The evaluation a placement of this pass belongs to: the kicked one, else the blocked one it unblocks, else (a
     *  reschedule found by the loop) a new {@code alloc-failure} one, which the pass finishes as it would a kicked one. */
    String evalFor(ObjectNode job) {
        String key = JobRegistry.key(job.path("Namespace").asString(), job.path("ID").asString());
        String b = blocked.get(key);
        if (b != null && !pending.containsKey(key)) {
            return b;
        }
        return pending.computeIfAbsent(key, k -> jobs.createEval(job, "alloc-failure").path("ID").asString());
    }

    /**
     * Finishes the pass's evaluations from the groups it could not place ({@code failed}, Nomad's {@code FailedTGAllocs}):
     * none → complete (and the blocked one too); a constraint → failed; else the kicked one completes and a blocked one
     * waits for the rest.
     */
    void finish(ObjectNode job, Map<String, ObjectNode> failed) {
        String key = JobRegistry.key(job.path("Namespace").asString(), job.path("ID").asString());
        boolean infeasible = failed.values().stream().anyMatch(f -> f.path("ConstraintFiltered").size() > 0);
        if (failed.isEmpty()) {
            finishPending(key, "complete", "", null);
            String b = blocked.remove(key);
            if (b != null) {
                jobs.finishEval(b, "complete", "", null);
            }
        } else if (infeasible) {
            finishPending(key, "failed", "constraints not met on this node", json.valueToTree(failed));
        } else {
            ObjectNode tree = json.valueToTree(failed);
            String b = blocked.computeIfAbsent(key, k -> {
                ObjectNode e = jobs.createEval(job, "queued-allocs");
                jobs.finishEval(e.path("ID").asString(), "blocked", BLOCKED_DESCRIPTION, tree);
                return e.path("ID").asString();
            });
            String p = pending.remove(key);
            if (p != null) {
                jobs.finishEval(p, "complete", "", tree);
                jobs.eval(p).ifPresent(e -> e.put("BlockedEval", b));
            }
        }
    }

    void finishPending(String key, String status, String description, JsonNode failed) {
        String evalId = pending.remove(key);
        if (evalId != null) {
            jobs.finishEval(evalId, status, description, failed);
        }
    }
}
