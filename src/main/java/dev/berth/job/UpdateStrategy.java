package dev.berth.job;

import java.time.Duration;

import tools.jackson.databind.JsonNode;

/**
 * A group's {@code update} block as the job carries it after canonicalization (the job-level block merged under the
 * group's own, Nomad's defaults filled in): how a new job version rolls out. {@code maxParallel} 0 means the group is
 * updated without a deployment.
 *
 * @param healthCheck {@code checks} (tasks running and every service check passing), {@code task_states} (tasks
 *                    running) or {@code manual} (set through {@code /v1/deployment/allocation-health})
 */
record UpdateStrategy(int maxParallel, String healthCheck, Duration minHealthyTime, Duration healthyDeadline,
                      Duration progressDeadline, boolean autoRevert, int canary, boolean autoPromote) {

    static final String CHECKS = "checks";
    static final String TASK_STATES = "task_states";
    static final String MANUAL = "manual";

    /** The group's strategy, or null when the group has none or it disables deployments ({@code max_parallel = 0}). */
    static UpdateStrategy of(JsonNode group) {
        JsonNode u = group.path("Update");
        if (!u.isObject() || u.path("MaxParallel").asInt(0) <= 0) {
            return null;
        }
        return new UpdateStrategy(u.path("MaxParallel").asInt(), u.path("HealthCheck").asString(CHECKS),
                Duration.ofNanos(u.path("MinHealthyTime").asLong(0)), Duration.ofNanos(u.path("HealthyDeadline").asLong(0)),
                Duration.ofNanos(u.path("ProgressDeadline").asLong(0)), u.path("AutoRevert").asBoolean(false),
                u.path("Canary").asInt(0), u.path("AutoPromote").asBoolean(false));
    }
}
