package dev.berth.job;

import java.util.ArrayList;
import java.util.List;

/**
 * What the local scheduler placed, persisted before the allocation is submitted (so a restart re-submits the same ID and
 * never places twice).
 *
 * @param groupHash      fingerprint of the group's destructive fields when placed ({@link GroupHash})
 * @param previousAlloc  the allocation this one replaces (update or reschedule), else null
 * @param reschedules    epoch millis of the reschedules that led to this allocation (its chain's history)
 * @param replaced       superseded by a newer allocation for the same index (or stopped by scale-down / job stop)
 * @param submitted      the allocation reached the alloc submission path
 * @param lastStatus     the allocation's last client status seen (kept after the alloc itself is collected)
 * @param failedAt       epoch millis when the scheduler first saw it failed, else null
 * @param update         placed by a destructive update (counts against {@code update.max_parallel} until running)
 * @param evalId         the evaluation whose pass placed it, or last updated it in place (the allocation's {@code EvalID});
 *                       null for a placement stored before it was recorded
 * @param deploymentId   the deployment it was placed (or last updated in place) by, else null
 * @param canary         placed as a canary: beside the allocation of its index until the deployment promotes it
 */
public record Placement(String allocId, String namespace, String jobId, String group, int index, long jobVersion,
                        String groupHash, String previousAlloc, List<Long> reschedules, boolean replaced, boolean submitted,
                        String lastStatus, Long failedAt, boolean update, long createIndex, String evalId,
                        String deploymentId, boolean canary) {

    public Placement {
        reschedules = reschedules == null ? List.of() : List.copyOf(reschedules);
    }

    public String name() {
        return jobId + "." + group + "[" + index + "]";
    }

    Placement asReplaced() {
        return new Placement(allocId, namespace, jobId, group, index, jobVersion, groupHash, previousAlloc, reschedules, true,
                submitted, lastStatus, failedAt, update, createIndex, evalId, deploymentId, canary);
    }

    Placement asSubmitted() {
        return new Placement(allocId, namespace, jobId, group, index, jobVersion, groupHash, previousAlloc, reschedules, replaced,
                true, lastStatus, failedAt, update, createIndex, evalId, deploymentId, canary);
    }

    Placement withStatus(String status, Long failed) {
        return new Placement(allocId, namespace, jobId, group, index, jobVersion, groupHash, previousAlloc, reschedules, replaced,
                submitted, status, failed, update, createIndex, evalId, deploymentId, canary);
    }

    /**
     * Updated in place to {@code version} (its group now hashing to {@code hash}) by the pass of evaluation {@code eval},
     * joining deployment {@code deployment}.
     */
    Placement withVersion(long version, String hash, String eval, String deployment) {
        return new Placement(allocId, namespace, jobId, group, index, version, hash, previousAlloc, reschedules, replaced,
                submitted, lastStatus, failedAt, update, createIndex, eval, deployment, canary);
    }

    List<Long> reschedulesPlus(long now) {
        List<Long> out = new ArrayList<>(reschedules);
        out.add(now);
        return out;
    }
}
