package dev.berth.alloc.hooks;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.task.TaskHookContext;
import dev.berth.alloc.task.TaskHooks.TaskExitedHook;
import dev.berth.alloc.task.TaskHooks.TaskPoststartHook;
import dev.berth.alloc.task.TaskHooks.TaskStopHook;
import dev.berth.driver.ExitResult;
import dev.berth.driver.TaskHandle;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.stats.TaskStatsCollector;
import dev.berth.stats.TaskStatsTarget;

/**
 * Nomad's {@code stats_hook}: a started task is registered with the stats collector (its cgroup from the handle's
 * driver state, else its root pid + start ticks) and unregistered when it exits or stops, which also drops its
 * metric series. Tasks whose driver state names neither (in-process mock tasks) have nothing to sample. With
 * {@code publish-allocation-metrics=false} the collector ignores registrations.
 */
@Component
@Order(100)
class TaskStatsHook implements TaskPoststartHook, TaskExitedHook, TaskStopHook {

    private final TaskStatsCollector collector;
    private final CgroupManager cgroups;

    TaskStatsHook(TaskStatsCollector collector, CgroupManager cgroups) {
        this.collector = collector;
        this.cgroups = cgroups;
    }

    @Override
    public String name() {
        return "stats_hook";
    }

    @Override
    public void poststart(TaskHookContext context, TaskHandle handle) {
        AllocationSpec alloc = context.alloc();
        String job = alloc.job() == null ? alloc.jobId()
                : alloc.job().name() != null && !alloc.job().name().isEmpty() ? alloc.job().name() : alloc.job().id();
        String namespace = alloc.namespace() != null && !alloc.namespace().isEmpty() ? alloc.namespace()
                : alloc.job() == null ? null : alloc.job().namespace();
        TaskStatsTarget.forTask(alloc.id(), context.task().name(), job, context.group().name(), namespace,
                context.process(handle), cgroups).ifPresent(collector::register);
    }

    @Override
    public void exited(TaskHookContext context, ExitResult result) {
        collector.unregister(context.alloc().id(), context.task().name());
    }

    @Override
    public void stop(TaskHookContext context) {
        collector.unregister(context.alloc().id(), context.task().name());
    }
}
