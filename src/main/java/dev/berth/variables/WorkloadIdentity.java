package dev.berth.variables;

import java.util.Objects;

/**
 * Who a task is, as its workload identity claims say: namespace, job, group, task. The job is the one the identity
 * names: for a dispatched or periodic child, its parent ({@link #of}).
 */
public record WorkloadIdentity(String namespace, String jobId, String group, String task) {

    public WorkloadIdentity {
        Objects.requireNonNull(namespace, "'namespace' must not be null");
        Objects.requireNonNull(jobId, "'jobId' must not be null");
        Objects.requireNonNull(group, "'group' must not be null");
        Objects.requireNonNull(task, "'task' must not be null");
    }

    /**
     * The identity of a task of job {@code jobId}, whose parent is {@code parentId} (null or empty when it has none):
     * Nomad names the parent in a child's identity ({@code Job.GetIDforWorkloadIdentity}), so a dispatched or periodic
     * child reads its parent's variables.
     */
    public static WorkloadIdentity of(String namespace, String jobId, String parentId, String group, String task) {
        return new WorkloadIdentity(namespace, parentId == null || parentId.isEmpty() ? jobId : parentId, group, task);
    }
}
