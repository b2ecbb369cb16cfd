package dev.berth.stats;

import java.util.Set;

/**
 * Cumulative CPU counters as read from the kernel, before any rate is computed.
 *
 * @param totalNs          user + system CPU time ({@link TaskCpuField#PERCENT} when read)
 * @param userNs           user time ({@link TaskCpuField#USER_MODE})
 * @param systemNs         system time ({@link TaskCpuField#SYSTEM_MODE})
 * @param throttledPeriods periods in which the CFS quota throttled the task
 * @param throttledNs      total time throttled
 * @param fields           what was really read
 */
public record TaskCpuTimes(long totalNs, long userNs, long systemNs, long throttledPeriods, long throttledNs, Set<TaskCpuField> fields) {

    public static final TaskCpuTimes NONE = new TaskCpuTimes(0, 0, 0, 0, 0, Set.of());

    public TaskCpuTimes {
        fields = FieldSets.CPU.of(fields);
    }

    public boolean isMeasured(TaskCpuField field) {
        return fields.contains(field);
    }
}
