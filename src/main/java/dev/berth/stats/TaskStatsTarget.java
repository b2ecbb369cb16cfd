package dev.berth.stats;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import dev.berth.host.TaskProcess;
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
     * The target for a task a driver started: its cgroup when the driver names one of Berth's own that exists, else, for
     * a cgroup recorded with its version (a docker container's {@code docker/<id>}), that cgroup read in place when the
     * agent sees that cgroup version, else its root process (pid + start ticks).
     *
     * @return empty when the task has neither (e.g. an in-process mock task): there is nothing to read
     */
    public static Optional<TaskStatsTarget> forTask(String allocId, String task, String job, String taskGroup,
            String namespace, TaskProcess process, CgroupManager cgroups) {
        Optional<TaskCgroup> cgroup = cgroups.find(process.cgroup());
        if (cgroup.isPresent()) {
            return Optional.of(new TaskStatsTarget(allocId, task, job, taskGroup, namespace, cgroup.get().version(),
                    cgroup.get().dirs(), 0, 0));
        }
        if (process.cgroupVersion() != 0 && process.cgroup() != null) {
            // a cgroup someone else made (the docker engine): read it when it is in the hierarchy we see, else the pid
            CgroupVersion expected = process.cgroupVersion() == 1 ? CgroupVersion.V1 : process.cgroupVersion() == 2 ? CgroupVersion.V2 : null;
            Optional<Map<String, Path>> dirs = expected == cgroups.version() ? cgroups.foreignDirs(process.cgroup()) : Optional.empty();
            if (dirs.isPresent()) {
                return Optional.of(new TaskStatsTarget(allocId, task, job, taskGroup, namespace, expected, dirs.get(), 0, 0));
            }
        }
        return process.pid() > 0 ? Optional.of(new TaskStatsTarget(allocId, task, job, taskGroup, namespace, CgroupVersion.NONE,
                Map.of(), process.pid(), process.startTicks())) : Optional.empty();
    }

    /** The registry key. */
    public TaskKey key() {
        return new TaskKey(allocId, task);
    }

    /**
     * Identifies a task across registrations: allocation ID and task name. A key is looked up a few times per task and
     * tick, so equality and hash are written out (a record's generated ones go through a method-handle chain, which
     * the agent's C1-only JIT does not reduce to this).
     */
    public record TaskKey(String allocId, String task) {

        @Override
        public boolean equals(Object other) {
            return this == other || other instanceof TaskKey key && Objects.equals(allocId, key.allocId)
                    && Objects.equals(task, key.task);
        }

        @Override
        public int hashCode() {
            return 31 * Objects.hashCode(allocId) + Objects.hashCode(task);
        }
    }
}
