package dev.berth.stats;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One task's reader plus the CPU-rate state between its samples. Turns each {@link TaskRawSample} into an immutable
 * {@link TaskStatsSnapshot}. Confined to one sampling at a time (the collector guarantees it).
 */
final class TaskSampler {

    private final TaskStatsTarget target;
    private final TaskStatsReader reader;
    private final TaskCpuCapacity capacity;
    private final Clock clock;
    private final Rates total = new Rates();
    private Map<Long, Rates> perPid = Map.of();
    /** The last sample's usage: used again while the reader gives the same figures (an idle task). */
    private TaskResourceUsage lastUsage;

    TaskSampler(TaskStatsTarget target, TaskStatsReader reader, TaskCpuCapacity capacity, Clock clock) {
        this.target = target;
        this.reader = reader;
        this.capacity = capacity;
        this.clock = clock;
    }

    TaskStatsTarget target() {
        return target;
    }

    /** Releases the reader's kept-open files; the task is no longer sampled. */
    void close() {
        reader.close();
    }

    TaskStatsSnapshot sample() throws IOException {
        TaskRawSample raw = reader.read();
        Instant at = clock.instant();
        long wallNs = at.getEpochSecond() * 1_000_000_000L + at.getNano();
        Map<String, TaskResourceUsage> pids;
        if (raw.pids().isEmpty()) { // the cgroup readers: no per-process figures, nothing to track
            pids = Map.of();
            perPid = Map.of();
        } else {
            pids = new LinkedHashMap<>();
            Map<Long, Rates> nextPerPid = new HashMap<>();
            raw.pids().forEach((pid, proc) -> {
                Rates rates = perPid.getOrDefault(pid, new Rates());
                nextPerPid.put(pid, rates);
                pids.put(Long.toString(pid), new TaskResourceUsage(proc.memory(), rates.cpu(proc.cpu(), wallNs)));
            });
            perPid = nextPerPid; // exited processes drop their trackers
        }
        TaskCpuStats cpu = total.cpu(raw.cpu(), wallNs);
        TaskResourceUsage usage = lastUsage;
        if (usage == null || usage.memory() != raw.memory() || usage.cpu() != cpu) {
            usage = new TaskResourceUsage(raw.memory(), cpu);
            lastUsage = usage;
        }
        return new TaskStatsSnapshot(target, wallNs, usage, pids);
    }

    /** The three percent trackers of one CPU time source (total, user, system), as Nomad keeps them. */
    private final class Rates {
        private final TaskCpuPercent totalPercent = new TaskCpuPercent();
        private final TaskCpuPercent userPercent = new TaskCpuPercent();
        private final TaskCpuPercent systemPercent = new TaskCpuPercent();
        /** The last result and the times it came from: returned again for the same times at the same rates. */
        private TaskCpuStats last;
        private TaskCpuTimes lastTimes;

        TaskCpuStats cpu(TaskCpuTimes times, long wallNs) {
            double percent = times.isMeasured(TaskCpuField.PERCENT) ? totalPercent.percent(times.totalNs(), wallNs) : 0;
            double user = times.isMeasured(TaskCpuField.USER_MODE) ? userPercent.percent(times.userNs(), wallNs) : 0;
            double system = times.isMeasured(TaskCpuField.SYSTEM_MODE) ? systemPercent.percent(times.systemNs(), wallNs) : 0;
            TaskCpuStats previous = last;
            if (previous != null && times == lastTimes && previous.percent() == percent && previous.userMode() == user
                    && previous.systemMode() == system) {
                return previous; // the same counters (an idle task): nothing moved, the rates are the same
            }
            last = new TaskCpuStats(system, user, capacity.ticksConsumed(percent), percent, times.throttledPeriods(),
                    times.throttledNs(), times.totalNs(), times.userNs(), times.systemNs(), times.fields());
            lastTimes = times;
            return last;
        }
    }
}
