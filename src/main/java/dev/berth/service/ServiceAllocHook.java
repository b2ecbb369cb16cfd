package dev.berth.service;

import org.springframework.beans.factory.ObjectProvider;

import dev.berth.alloc.runner.AllocHooks.AllocDestroyHook;
import dev.berth.alloc.runner.AllocHooks.AllocHookContext;
import dev.berth.alloc.runner.AllocHooks.AllocPostrunHook;
import dev.berth.alloc.runner.AllocHooks.AllocPrerunHook;
import dev.berth.alloc.runner.AllocHooks.AllocShutdownHook;
import dev.berth.alloc.runner.AllocRunnerContext;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.task.TaskHookContext;

/**
 * Nomad's {@code group_services} and {@code checks_hook}: a group's services register and their checks arm at prerun
 * (also when the alloc is restored after an agent restart), interpolated with the environment of the task the service
 * names (else the group's first task: ports are alloc-wide). Postrun and destroy stop every check of the alloc and
 * deregister every service of it, task services included, so nothing outlives the allocation; agent shutdown only stops
 * the checks.
 */
class ServiceAllocHook implements AllocPrerunHook, AllocPostrunHook, AllocDestroyHook, AllocShutdownHook {

    private final ServiceChecks checks;
    private final ObjectProvider<AllocRunnerContext> runnerContext;

    ServiceAllocHook(ServiceChecks checks, ObjectProvider<AllocRunnerContext> runnerContext) {
        this.checks = checks;
        this.runnerContext = runnerContext;
    }

    @Override
    public String name() {
        return "group_services";
    }

    @Override
    public void prerun(AllocHookContext context) {
        TaskGroupSpec group = context.alloc().group().orElse(null);
        if (group == null || group.servicesOrEmpty().isEmpty() || group.tasks() == null || group.tasks().isEmpty()) {
            return;
        }
        TaskSpec task = group.tasks().getFirst();
        TaskHookContext hc = new TaskHookContext(context.alloc(), group, task, context.dir().path(), context.dir().taskDir(task.name()),
                null, e -> { });
        checks.groupStarted(context.alloc(), group.name(), group.servicesOrEmpty(), runnerContext.getObject().envBuilder().apply(hc));
    }

    @Override
    public void postrun(AllocHookContext context) {
        checks.allocDone(context.alloc().id());
    }

    @Override
    public void destroy(AllocHookContext context) {
        checks.allocDone(context.alloc().id());
    }

    @Override
    public void shutdown(AllocHookContext context) {
        checks.allocShutdown(context.alloc().id());
    }
}
