package dev.berth.stats;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import dev.berth.host.cgroup.CgroupManager;
import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.host.cgroup.TaskCgroup;

/**
 * A running task the collector samples: its identity (the metric labels) and where its usage can be read — its
 * cgroup directories, or else its root pid with that process's start time.
 *
 * @param allocId      the allocation ID
 * @param task         the task name
 * @param job          the job name (label {@code job})
 * @param taskGroup    the task group
 * @param namespace    the namespace
 * @param cgroupVersion {@link CgroupVersion#NONE} when the task has no cgroup
 * @param cgroupDirs   v1: directory per controller; v2: {@code unified} → directory; empty when none
 * @param rootPid      the task's root process (used when there is no cgroup); 0 when unknown
 * @param startTicks   the root process's start time (field 22 of its {@code /proc/<pid>/stat}), 0 to not check
 */
public record TaskStatsTarget(String allocId, String task, String job, String taskGroup, String namespace,
        CgroupVersion cgroupVersion, Map<String, Path> cgroupDirs, long rootPid, long startTicks) {

    public TaskStatsTarget {
        Objects.requireNonNull(allocId, "'allocId' must not be null");
        Objects.requireNonNull(task, "'task' must not be null");
        job = job == null ? "" : job;
        taskGroup = taskGroup == null ? "" : taskGroup;
        namespace = namespace == null || namespace.isEmpty() ? "default" : namespace;
        Objects.requireNonNull(cgroupVersion, "'cgroupVersion' must not be null");
        cgroupDirs = Map.copyOf(cgroupDirs);
        if (cgroupVersion == CgroupVersion.NONE && rootPid <= 0) {
            throw new IllegalArgumentException("task '" + allocId + "/" + task + "' needs a cgroup or a root pid");
        }
    }

    /**
     * The target for a task a driver started: its cgroup when the handle's driver state names one that exists
     * ({@code cgroup}), else its root process ({@code pid} + {@code start_ticks}). With {@code cgroup_version}
     * ({@code 1}/{@code 2}) the cgroup is a foreign one (a docker container's {@code docker/<id>}), read in place
     * when the agent sees that cgroup version. A cgroup under the node's own parent (an exec task's) is always taken as
     * Berth's own.
     *
     * @return empty when the driver state has neither (e.g. an in-process mock task): there is nothing to read
     */
    public static Optional<TaskStatsTarget> fromDriverState(String allocId, String task, String job, String taskGroup,
            String namespace, Map<String, String> driverState, CgroupManager cgroups) {
        Optional<TaskCgroup> cgroup = cgroups.find(driverState.get("cgroup"));
        if (cgroup.isPresent()) {
            return Optional.of(new TaskStatsTarget(allocId, task, job, taskGroup, namespace, cgroup.get().version(),
                    cgroup.get().dirs(), 0, 0));
        }
        String foreignVersion = driverState.get(STATE_CGROUP_VERSION);
        if (foreignVersion != null) {
            // a cgroup someone else made (the docker engine): read it when it is in the hierarchy we see, else the pid
            CgroupVersion expected = "1".equals(foreignVersion) ? CgroupVersion.V1 : "2".equals(foreignVersion) ? CgroupVersion.V2 : null;
            Optional<Map<String, Path>> dirs = expected == cgroups.version()
                    ? cgroups.foreignDirs(driverState.get("cgroup")) : Optional.empty();
            if (dirs.isPresent()) {
                return Optional.of(new TaskStatsTarget(allocId, task, job, taskGroup, namespace, expected, dirs.get(), 0, 0));
            }
        }
        return fromPid(allocId, task, job, taskGroup, namespace, driverState);
    }

    private static Optional<TaskStatsTarget> fromPid(String allocId, String task, String job, String taskGroup,
            String namespace, Map<String, String> driverState) {
        try {
            long pid = Long.parseLong(driverState.getOrDefault("pid", ""));
            long startTicks = Long.parseLong(driverState.getOrDefault("start_ticks", "0"));
            return pid > 0 ? Optional.of(new TaskStatsTarget(allocId, task, job, taskGroup, namespace, CgroupVersion.NONE,
                    Map.of(), pid, Math.max(0, startTicks))) : Optional.empty();
        } catch (NumberFormatException noPid) {
            return Optional.empty();
        }
    }

    /** driverState key of a foreign cgroup's version ({@code 1} or {@code 2}); see {@link #fromDriverState}. */
    public static final String STATE_CGROUP_VERSION = "cgroup_version";

    /** The registry key. */
    public TaskKey key() {
        return new TaskKey(allocId, task);
    }

    /** Identifies a task across registrations: allocation ID and task name. */
    public record TaskKey(String allocId, String task) {
    }
}
