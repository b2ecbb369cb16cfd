package dev.berth.service;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.springframework.beans.factory.ObjectProvider;

import dev.berth.alloc.runner.AllocRunnerContext;
import dev.berth.alloc.task.Interpolator;
import dev.berth.alloc.task.TaskHookContext;
import dev.berth.alloc.task.TaskHooks.TaskExitedHook;
import dev.berth.alloc.task.TaskHooks.TaskPoststartHook;
import dev.berth.alloc.task.TaskHooks.TaskShutdownHook;
import dev.berth.alloc.task.TaskHooks.TaskStopHook;
import dev.berth.driver.ExitResult;
import dev.berth.driver.TaskHandle;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.host.cgroup.TaskCgroup;

/**
 * Nomad's {@code task_services} and {@code script_checks} hooks: after each start of a task (and after it is re-attached
 * on an agent restart) its services register and their checks arm, interpolated with the task's environment; the task's
 * environment, directory and cgroup are kept for script checks (also those of group services naming the task). On exit
 * and stop the checks stop and the services deregister; on agent shutdown the checks only stop.
 */
class ServiceTaskHook implements TaskPoststartHook, TaskExitedHook, TaskStopHook, TaskShutdownHook {

    private final ServiceChecks checks;
    private final ObjectProvider<AllocRunnerContext> runnerContext;
    private final CgroupManager cgroups;

    ServiceTaskHook(ServiceChecks checks, ObjectProvider<AllocRunnerContext> runnerContext, CgroupManager cgroups) {
        this.checks = checks;
        this.runnerContext = runnerContext;
        this.cgroups = cgroups;
    }

    @Override
    public String name() {
        return "task_services";
    }

    @Override
    public void poststart(TaskHookContext context, TaskHandle handle) {
        Interpolator env = runnerContext.getObject().envBuilder().apply(context);
        String driver = context.driver() == null ? handle.driver() : context.driver().name();
        dev.berth.host.TaskProcess process = context.process(handle);
        // only a cgroup of ours (cgroupVersion 0): a foreign one (docker's) is not joined
        List<Path> procs = (process.cgroupVersion() == 0 ? cgroups.find(process.cgroup()) : java.util.Optional.<TaskCgroup>empty())
                .map(TaskCgroup::dirs).map(Map::values).stream().flatMap(v -> v.stream()).map(d -> d.resolve("cgroup.procs")).toList();
        RunningTask rt = new RunningTask(driver, env.env(), context.taskDir(), procs);
        checks.taskStarted(context.alloc(), context.group().name(), context.task().name(), context.task().servicesOrEmpty(), env, rt);
    }

    @Override
    public void exited(TaskHookContext context, ExitResult result) {
        checks.taskStopped(context.alloc().id(), context.task().name());
    }

    @Override
    public void stop(TaskHookContext context) {
        checks.taskStopped(context.alloc().id(), context.task().name());
    }

    @Override
    public void shutdown(TaskHookContext context) {
        checks.taskShutdown(context.alloc().id(), context.task().name());
    }
}
