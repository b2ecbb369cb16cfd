package dev.berth.driver.hostexec;

import java.util.Optional;

import dev.berth.driver.DriverException;
import dev.berth.driver.ExecSession;
import dev.berth.driver.TaskDriver;
import dev.berth.driver.TaskHandle;
import dev.berth.host.cgroup.TaskCgroup;

/** A driver whose tasks are host processes (raw_exec, exec): {@code alloc exec} through {@link HostExec}, in the task's cgroup. */
public interface HostExecDriver extends TaskDriver {

    /** The task's cgroup; empty when it has none (raw_exec without cgroups) or it was removed. */
    Optional<TaskCgroup> cgroupOf(TaskHandle handle);

    /** Runs the command with the task's environment and working directory, inside its cgroup; refused once the task exited. */
    @Override
    default ExecSession exec(TaskHandle handle, ExecSession.Request request) throws DriverException {
        return HostExec.start(handle, cgroupOf(handle), request);
    }
}
