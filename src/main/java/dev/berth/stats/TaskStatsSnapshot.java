package dev.berth.stats;

import java.util.Map;
import java.util.Objects;

/**
 * The latest sample of one task, as REST and Prometheus read it (Nomad's {@code TaskResourceUsage}).
 *
 * @param target         the task
 * @param timestampNanos when it was read, UnixNano
 * @param usage          the whole task
 * @param pids           per process, keyed by pid string; empty when the source has no per-process figures (cgroups)
 */
public record TaskStatsSnapshot(TaskStatsTarget target, long timestampNanos, TaskResourceUsage usage, Map<String, TaskResourceUsage> pids) {

    public TaskStatsSnapshot {
        Objects.requireNonNull(target, "'target' must not be null");
        Objects.requireNonNull(usage, "'usage' must not be null");
        pids = Map.copyOf(pids);
    }
}
