package dev.berth.alloc.hooks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.task.TaskHookContext;
import dev.berth.alloc.task.TaskHooks.TaskExitedHook;
import dev.berth.alloc.task.TaskHooks.TaskPoststartHook;
import dev.berth.alloc.task.TaskHooks.TaskStopHook;
import dev.berth.device.DeviceAllocator;
import dev.berth.device.ProcessOwners;
import dev.berth.device.TaskRef;
import dev.berth.driver.ExitResult;
import dev.berth.driver.TaskHandle;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.stats.TaskStatsTarget;

/**
 * Tells the device side which task a GPU process belongs to ({@link ProcessOwners}): every started task of an
 * allocation that holds devices is remembered with its cgroup or root process (the same target the stats hook
 * samples, whether or not allocation metrics are published) until it exits or stops; {@link ProcessAttribution} does
 * the procfs work. Sibling tasks without devices are remembered too: their processes on the allocation's GPUs are the
 * allocation's, not foreign.
 */
@Component
@Order(101)
public class TaskProcessOwners implements ProcessOwners, TaskPoststartHook, TaskExitedHook, TaskStopHook {

    private final DeviceAllocator allocator;

    private final CgroupManager cgroups;

    private final Path proc;

    private final ConcurrentHashMap<String, Map<String, TaskStatsTarget>> byAlloc = new ConcurrentHashMap<>();

    TaskProcessOwners(DeviceAllocator allocator, CgroupManager cgroups) {
        this.allocator = allocator;
        this.cgroups = cgroups;
        this.proc = Path.of("/proc");
    }

    @Override
    public String name() {
        return "device_process_owners";
    }

    @Override
    public void poststart(TaskHookContext context, TaskHandle handle) {
        AllocationSpec alloc = context.alloc();
        if (!allocator.holdsDevices(alloc.id())) {
            return;
        }
        String job = alloc.job() == null ? alloc.jobId()
                : alloc.job().name() != null && !alloc.job().name().isEmpty() ? alloc.job().name() : alloc.job().id();
        TaskStatsTarget.forTask(alloc.id(), context.task().name(), job, context.group().name(), null,
                context.process(handle), cgroups).ifPresent((target) -> register(target));
    }

    /** Remembers a task's target (also for tests and restores). */
    void register(TaskStatsTarget target) {
        byAlloc.computeIfAbsent(target.allocId(), (k) -> new ConcurrentHashMap<>()).put(target.task(), target);
    }

    @Override
    public void exited(TaskHookContext context, ExitResult result) {
        forget(context.alloc().id(), context.task().name());
    }

    @Override
    public void stop(TaskHookContext context) {
        forget(context.alloc().id(), context.task().name());
    }

    private void forget(String allocId, String task) {
        byAlloc.computeIfPresent(allocId, (k, tasks) -> {
            tasks.remove(task);
            return tasks.isEmpty() ? null : tasks;
        });
    }

    @Override
    public Map<Long, TaskRef> owners(Collection<Long> pids, Collection<String> allocIds) {
        List<TaskStatsTarget> targets = new ArrayList<>();
        for (String allocId : allocIds) {
            targets.addAll(byAlloc.getOrDefault(allocId, Map.of()).values());
        }
        if (targets.isEmpty()) {
            return Map.of();
        }
        Map<Long, TaskRef> result = new HashMap<>();
        new ProcessAttribution(proc, targets).owners(pids)
                .forEach((pid, target) -> result.put(pid, new TaskRef(target.allocId(), target.job(), target.task())));
        return result;
    }
}
