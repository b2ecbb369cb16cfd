package dev.berth.stats;

import java.nio.file.Path;
import java.time.Clock;
import java.util.function.Function;

import dev.berth.host.cgroup.TaskCgroup;

/** Picks the reader for a task: its v1 or v2 cgroup when it has one, else its /proc process tree. */
final class TaskStatsReaders implements Function<TaskStatsTarget, TaskStatsReader> {

    private final Path proc;
    private final Clock clock;
    private final DescriptorBudget budget;

    TaskStatsReaders(Path proc, Clock clock, DescriptorBudget budget) {
        this.proc = proc;
        this.clock = clock;
        this.budget = budget;
    }

    @Override
    public TaskStatsReader apply(TaskStatsTarget target) {
        return switch (target.cgroupVersion()) {
            case V1 -> new CgroupV1StatsReader(target.cgroupDirs(), budget);
            case V2 -> new CgroupV2StatsReader(target.cgroupDirs().get(TaskCgroup.UNIFIED), budget);
            case NONE -> new ProcTreeStatsReader(proc, target.rootPid(), target.startTicks(), clock);
        };
    }
}
