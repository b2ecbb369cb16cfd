package dev.berth.stats;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

import dev.berth.driver.cgroup.CgroupVersion;

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

    /** The registry key. */
    public TaskKey key() {
        return new TaskKey(allocId, task);
    }

    /** Identifies a task across registrations: allocation ID and task name. */
    public record TaskKey(String allocId, String task) {
    }
}
