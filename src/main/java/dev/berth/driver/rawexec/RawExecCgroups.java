package dev.berth.driver.rawexec;

import java.util.Optional;

import dev.berth.driver.DriverException;
import dev.berth.driver.TaskConfig;
import dev.berth.host.cgroup.CgroupLimits;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.host.cgroup.CgroupUnavailableException;
import dev.berth.host.cgroup.TaskCgroup;

/**
 * The cgroup of a raw_exec task: no limits, there for stats, pressure, OOM and the cores it runs on. A task that shares
 * the node's cores runs without one where none can be made; a task that reserved cores never runs off them, so it fails
 * to start instead.
 */
final class RawExecCgroups {

    private RawExecCgroups() {
    }

    /** @param cgroups null when the agent manages no cgroups */
    static Optional<TaskCgroup> forTask(CgroupManager cgroups, TaskConfig task) throws DriverException {
        if (task.reservedCores().isEmpty()) {
            return cgroups == null ? Optional.empty() : cgroups.create(task.allocId(), task.taskName(), CgroupLimits.none());
        }
        if (cgroups == null) {
            throw new DriverException("task " + task.id() + " reserved cores " + task.reservedCores()
                    + " but raw_exec runs without cgroups here", false);
        }
        try {
            return Optional.of(cgroups.make(task.allocId(), task.taskName(), CgroupLimits.none(), task.reservedCores()));
        } catch (CgroupUnavailableException e) {
            throw new DriverException("cannot put task " + task.id() + " on its reserved cores " + task.reservedCores() + ": "
                    + e.getMessage(), false, e);
        }
    }
}
