package dev.berth.job;

import java.time.Instant;

/**
 * Whether an allocation of a deployment is healthy, as Nomad's client health tracker decides it: healthy once every
 * task runs (and, for {@code health_check = "checks"}, every service check of the group passes) and has done so
 * without a break for {@code min_healthy_time}; unhealthy as soon as a task fails, or when {@code healthy_deadline}
 * passes first. {@code manual} health is only ever set by hand. Pure: the observation carries the times.
 */
final class AllocHealth {

    private AllocHealth() {
    }

    /** What the health tracker sees of one allocation now. */
    record Observation(Instant joinedAt, boolean taskFailed, String failedTask, Instant tasksUpSince, int checksExpected,
                       Instant checksPassingSince) {
    }

    /** The outcome: healthy, unhealthy (with why) or not yet known. */
    sealed interface Verdict {
        record Healthy() implements Verdict {
        }

        record Unhealthy(String reason) implements Verdict {
        }

        record Waiting() implements Verdict {
        }
    }

    static Verdict judge(UpdateStrategy strategy, Observation seen, Instant now) {
        if (UpdateStrategy.MANUAL.equals(strategy.healthCheck())) {
            return new Verdict.Waiting();
        }
        if (seen.taskFailed()) {
            return new Verdict.Unhealthy("Task \"" + seen.failedTask() + "\" failed");
        }
        Instant since = seen.tasksUpSince();
        if (since != null && UpdateStrategy.CHECKS.equals(strategy.healthCheck()) && seen.checksExpected() > 0) {
            since = seen.checksPassingSince() == null ? null
                    : seen.checksPassingSince().isAfter(since) ? seen.checksPassingSince() : since;
        }
        if (since != null && !now.isBefore(since.plus(strategy.minHealthyTime()))) {
            return new Verdict.Healthy();
        }
        if (strategy.healthyDeadline().isPositive() && !now.isBefore(seen.joinedAt().plus(strategy.healthyDeadline()))) {
            return new Verdict.Unhealthy("healthy deadline of " + strategy.healthyDeadline() + " passed");
        }
        return new Verdict.Waiting();
    }
}
