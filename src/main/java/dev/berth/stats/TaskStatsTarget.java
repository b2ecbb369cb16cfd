package dev.berth.stats;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import dev.berth.driver.cgroup.CgroupManager;
import dev.berth.driver.cgroup.CgroupVersion;
import dev.berth.driver.cgroup.TaskCgroup;

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
     * ({@code cgroup}), else its root process ({@code pid} + {@code start_ticks}).
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
        try {
            long pid = Long.parseLong(driverState.getOrDefault("pid", ""));
            long startTicks = Long.parseLong(driverState.getOrDefault("start_ticks", "0"));
            return pid > 0 ? Optional.of(new TaskStatsTarget(allocId, task, job, taskGroup, namespace, CgroupVersion.NONE,
                    Map.of(), pid, Math.max(0, startTicks))) : Optional.empty();
        } catch (NumberFormatException noPid) {
            return Optional.empty();
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
