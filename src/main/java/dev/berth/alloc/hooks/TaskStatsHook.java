package dev.berth.alloc.hooks;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.task.TaskHookContext;
import dev.berth.alloc.task.TaskHooks.TaskExitedHook;
import dev.berth.alloc.task.TaskHooks.TaskPoststartHook;
import dev.berth.alloc.task.TaskHooks.TaskStopHook;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.driver.ExitResult;
import dev.berth.driver.GoDuration;
import dev.berth.driver.TaskHandle;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.stats.MemoryThrottling;
import dev.berth.stats.TaskMemoryEvents;
import dev.berth.stats.TaskMemoryEventsCollector;
import dev.berth.stats.TaskStatsCollector;
import dev.berth.stats.TaskStatsTarget;

/**
 * Nomad's {@code stats_hook}: a started task is registered with the stats collector (its cgroup from the handle's
 * driver state, else its root pid + start ticks) and unregistered when it exits or stops, which also drops its
 * metric series. Tasks whose driver state names neither (in-process mock tasks) have nothing to sample. With
 * {@code publish-allocation-metrics=false} the collector ignores registrations. While a task runs, a burst of its
 * {@code memory.high} throttling becomes a {@code Memory Throttled} task event.
 */
@Component
@Order(100)
class TaskStatsHook implements TaskPoststartHook, TaskExitedHook, TaskStopHook {

    private final TaskStatsCollector collector;
    private final CgroupManager cgroups;
    private final TaskMemoryEventsCollector memoryEvents;

    TaskStatsHook(TaskStatsCollector collector, CgroupManager cgroups, TaskMemoryEventsCollector memoryEvents) {
        this.collector = collector;
        this.cgroups = cgroups;
        this.memoryEvents = memoryEvents;
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
                context.process(handle), cgroups).ifPresent(target -> {
                    memoryEvents.watch(target.allocId(), target.task(), throttling -> context.events().accept(event(throttling)));
                    collector.register(target);
                });
    }

    @Override
    public void exited(TaskHookContext context, ExitResult result) {
        memoryEvents.unwatch(context.alloc().id(), context.task().name());
        collector.unregister(context.alloc().id(), context.task().name());
    }

    @Override
    public void stop(TaskHookContext context) {
        memoryEvents.unwatch(context.alloc().id(), context.task().name());
        collector.unregister(context.alloc().id(), context.task().name());
    }

    /** The {@code Memory Throttled} event of a burst: the rise in words, every counter in the details. */
    static TaskEvent event(MemoryThrottling throttling) {
        TaskMemoryEvents counters = throttling.events();
        String message = "Memory throttled at memory.high " + throttling.highRise() + " times in "
                + GoDuration.format(throttling.over()) + " (" + counters.high() + " in all"
                + (throttling.suppressedBursts() > 0 ? "; " + throttling.suppressedBursts() + " earlier bursts not reported" : "")
                + ")";
        Map<String, String> details = new LinkedHashMap<>();
        details.put("memory_high_events", Long.toString(throttling.highRise()));
        details.put("interval", GoDuration.format(throttling.over()));
        details.put("suppressed_bursts", Integer.toString(throttling.suppressedBursts()));
        for (TaskMemoryEvents.Event event : TaskMemoryEvents.Event.values()) {
            if (counters.has(event) && event != TaskMemoryEvents.Event.UNDER_OOM) {
                details.put("memory_" + event.label() + "_total", Long.toString(counters.count(event)));
            }
        }
        return TaskEvent.memoryThrottled(throttling.at(), message, details);
    }
}
