package dev.berth.variables;

import java.util.Set;

/**
 * What a task may read without any ACL policy: Nomad's automatic workload access ({@code acl/acl.go},
 * {@code matchingVariablesCapabilitySet}) gives read and list on exactly these paths in the task's own namespace, and
 * nothing below or beside them: {@code nomad/jobs}, {@code nomad/jobs/<job>}, {@code nomad/jobs/<job>/<group>} and
 * {@code nomad/jobs/<job>/<group>/<task>}. Berth has no ACL policies to attach to a job, so this is all a task reads.
 */
public final class WorkloadVariablePolicy {

    private WorkloadVariablePolicy() {
    }

    /** Whether the workload {@code who} may read (and list) the variable at {@code namespace}/{@code path}. */
    public static boolean allows(WorkloadIdentity who, String namespace, String path) {
        return who.namespace().equals(namespace) && readable(who).contains(path);
    }

    /** The paths {@code who} may read in its namespace. */
    public static Set<String> readable(WorkloadIdentity who) {
        String job = "nomad/jobs/" + who.jobId();
        return Set.of("nomad/jobs", job, job + "/" + who.group(), job + "/" + who.group() + "/" + who.task());
    }
}
