package dev.berth.stats;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * CPU usage of a task in Nomad's terms plus the cumulative counters Prometheus wants.
 *
 * @param systemMode       percent of one core spent in the kernel since the previous sample (Nomad: a percentage)
 * @param userMode         percent of one core spent in user space
 * @param totalTicks       MHz consumed: {@code percent/100 × totalCompute/numCores}
 * @param percent          percent of one core (not divided by cores: 4 busy cores read 400)
 * @param throttledPeriods cumulative throttled periods
 * @param throttledTime    cumulative throttled time in ns
 * @param totalNs          cumulative CPU time in ns (the counter behind {@code berth_task_cpu_seconds_total})
 * @param userNs           cumulative user time in ns
 * @param systemNs         cumulative system time in ns
 * @param fields           what was really read
 */
public record TaskCpuStats(double systemMode, double userMode, double totalTicks, double percent, long throttledPeriods,
        long throttledTime, long totalNs, long userNs, long systemNs, Set<TaskCpuField> fields) {

    public static final TaskCpuStats NONE = new TaskCpuStats(0, 0, 0, 0, 0, 0, 0, 0, 0, Set.of());

    public TaskCpuStats {
        fields = FieldSets.CPU.of(fields);
    }

    public boolean isMeasured(TaskCpuField field) {
        return fields.contains(field);
    }

    /** Nomad's {@code Measured} for CPU, in Nomad's order. */
    public List<String> measured() {
        List<String> names = new ArrayList<>(fields.size());
        for (TaskCpuField field : TaskCpuField.values()) {
            if (fields.contains(field)) {
                names.add(field.nomadName());
            }
        }
        return List.copyOf(names);
    }

    /** Nomad's {@code CpuStats.Add}: every numeric field summed (Percent too), measured sets united. */
    public TaskCpuStats plus(TaskCpuStats o) {
        EnumSet<TaskCpuField> union = EnumSet.noneOf(TaskCpuField.class);
        union.addAll(fields);
        union.addAll(o.fields);
        return new TaskCpuStats(systemMode + o.systemMode, userMode + o.userMode, totalTicks + o.totalTicks, percent + o.percent,
                throttledPeriods + o.throttledPeriods, throttledTime + o.throttledTime, totalNs + o.totalNs, userNs + o.userNs,
                systemNs + o.systemNs, union);
    }
}
