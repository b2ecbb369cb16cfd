package dev.berth.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import java.util.function.Function;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import dev.berth.stats.AllocStats;
import dev.berth.stats.TaskCpuStats;
import dev.berth.stats.TaskMemoryEvents;
import dev.berth.stats.TaskMemoryStats;
import dev.berth.stats.TaskPressure;
import dev.berth.stats.TaskResourceUsage;
import dev.berth.stats.TaskStatsSnapshot;

/**
 * Nomad's {@code AllocResourceUsage} JSON ({@code client/structs/structs.go}): PascalCase names, {@code null} for nil
 * slices and maps, UnixNano timestamps. Working set is deliberately not here (it is in Prometheus): the shape stays
 * exactly Nomad's.
 */
final class AllocStatsDtos {

    private AllocStatsDtos() {
    }

    record AllocResourceUsage(
            @JsonProperty("ResourceUsage") ResourceUsage resourceUsage,
            @JsonProperty("Tasks") Map<String, TaskResourceUsageDto> tasks,
            @JsonProperty("Timestamp") long timestamp) {

        static AllocResourceUsage of(AllocStats stats) {
            return of(stats, snapshot -> null, snapshot -> null);
        }

        /**
         * @param pressure     a task's PSI figures (null when it has none: cgroup v1, no PSI)
         * @param memoryEvents a task's memory event counters (null when it has none: no cgroup)
         */
        static AllocResourceUsage of(AllocStats stats, Function<TaskStatsSnapshot, TaskPressure> pressure,
                Function<TaskStatsSnapshot, TaskMemoryEvents> memoryEvents) {
            Map<String, TaskResourceUsageDto> tasks = new LinkedHashMap<>();
            stats.tasks().forEach((name, snapshot) -> tasks.put(name,
                    TaskResourceUsageDto.of(snapshot, pressure.apply(snapshot), memoryEvents.apply(snapshot))));
            boolean any = !tasks.isEmpty();
            // LatestAllocStats always answers a non-nil ResourceUsage, empty stats and DeviceStats [] when no task ran;
            // Measured is joinStringSet's result once a task was added, nil before.
            ResourceUsage usage = new ResourceUsage(
                    MemoryStatsDto.of(stats.usage().memory(), any ? stats.memoryMeasured() : null),
                    CpuStatsDto.of(stats.usage().cpu(), any ? stats.cpuMeasured() : null),
                    List.of());
            return new AllocResourceUsage(usage, tasks, stats.timestampNanos());
        }
    }

    /**
     * Nomad's task usage; {@code Pressure} (cgroup v2 PSI) and {@code MemoryEvents} (the cgroup's memory event
     * counters) are Berth's additions, each left out when the task has none, so Nomad clients, which ignore unknown
     * fields, see Nomad's shape.
     */
    record TaskResourceUsageDto(
            @JsonProperty("ResourceUsage") ResourceUsage resourceUsage,
            @JsonProperty("Timestamp") long timestamp,
            @JsonProperty("Pids") Map<String, ResourceUsage> pids,
            @JsonProperty("Pressure") @JsonInclude(JsonInclude.Include.NON_NULL) PressureDto pressure,
            @JsonProperty("MemoryEvents") @JsonInclude(JsonInclude.Include.NON_NULL) MemoryEventsDto memoryEvents) {

        TaskResourceUsageDto(ResourceUsage resourceUsage, long timestamp, Map<String, ResourceUsage> pids) {
            this(resourceUsage, timestamp, pids, null, null);
        }

        static TaskResourceUsageDto of(TaskStatsSnapshot snapshot, TaskPressure pressure, TaskMemoryEvents memoryEvents) {
            Map<String, ResourceUsage> pids = null;
            if (!snapshot.pids().isEmpty()) {
                pids = new LinkedHashMap<>();
                for (Map.Entry<String, TaskResourceUsage> pid : snapshot.pids().entrySet()) {
                    pids.put(pid.getKey(), ResourceUsage.of(pid.getValue()));
                }
            }
            return new TaskResourceUsageDto(ResourceUsage.of(snapshot.usage()), snapshot.timestampNanos(), pids,
                    pressure == null || pressure.isEmpty() ? null : PressureDto.of(pressure), MemoryEventsDto.of(memoryEvents));
        }
    }

    /**
     * A task's memory event counters, each present only where its cgroup keeps it: v2 {@code Low}, {@code High},
     * {@code Max}, {@code Oom}, {@code OomKill} ({@code memory.events}); v1 {@code Failcnt}, {@code MemswFailcnt},
     * {@code OomKill} and {@code UnderOom} (a state: true while the cgroup is out of memory).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record MemoryEventsDto(@JsonProperty("Low") Long low, @JsonProperty("High") Long high, @JsonProperty("Max") Long max,
            @JsonProperty("Oom") Long oom, @JsonProperty("OomKill") Long oomKill, @JsonProperty("Failcnt") Long failcnt,
            @JsonProperty("MemswFailcnt") Long memswFailcnt, @JsonProperty("UnderOom") Boolean underOom) {

        static MemoryEventsDto of(TaskMemoryEvents e) {
            if (e == null || e.isEmpty()) {
                return null;
            }
            return new MemoryEventsDto(count(e, TaskMemoryEvents.Event.LOW), count(e, TaskMemoryEvents.Event.HIGH),
                    count(e, TaskMemoryEvents.Event.MAX), count(e, TaskMemoryEvents.Event.OOM),
                    count(e, TaskMemoryEvents.Event.OOM_KILL), count(e, TaskMemoryEvents.Event.FAILCNT),
                    count(e, TaskMemoryEvents.Event.MEMSW_FAILCNT),
                    e.has(TaskMemoryEvents.Event.UNDER_OOM) ? e.underOom() : null);
        }

        private static Long count(TaskMemoryEvents e, TaskMemoryEvents.Event event) {
            return e.has(event) ? e.count(event) : null;
        }
    }

    /** A task's PSI: {@code CPU}, {@code Memory}, {@code IO}, each present only where the kernel has the file. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record PressureDto(@JsonProperty("CPU") StallDto cpu, @JsonProperty("Memory") StallDto memory, @JsonProperty("IO") StallDto io) {

        static PressureDto of(TaskPressure p) {
            return new PressureDto(StallDto.of(p.cpu()), StallDto.of(p.memory()), StallDto.of(p.io()));
        }
    }

    /** {@code Some} and {@code Full} (absent where the kernel has no full line, e.g. cpu before 5.13). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record StallDto(@JsonProperty("Some") LineDto some, @JsonProperty("Full") LineDto full) {

        static StallDto of(TaskPressure.Pressure p) {
            return p == null ? null : new StallDto(LineDto.of(p.some()), LineDto.of(p.full()));
        }
    }

    /** Percent of wall time stalled over 10/60/300 s, and the total stall time in microseconds. */
    record LineDto(@JsonProperty("Avg10") double avg10, @JsonProperty("Avg60") double avg60,
            @JsonProperty("Avg300") double avg300, @JsonProperty("Total") long total) {

        static LineDto of(TaskPressure.Line line) {
            return line == null ? null : new LineDto(line.avg10(), line.avg60(), line.avg300(), line.totalMicros());
        }
    }

    /** {@code DeviceStats} is null per task (no devices reserved) and {@code []} for the alloc sum, as Nomad. */
    record ResourceUsage(
            @JsonProperty("MemoryStats") MemoryStatsDto memoryStats,
            @JsonProperty("CpuStats") CpuStatsDto cpuStats,
            @JsonProperty("DeviceStats") List<Object> deviceStats) {

        static ResourceUsage of(TaskResourceUsage usage) {
            return new ResourceUsage(MemoryStatsDto.of(usage.memory(), nullIfEmpty(usage.memory().measured())),
                    CpuStatsDto.of(usage.cpu(), nullIfEmpty(usage.cpu().measured())), null);
        }
    }

    record MemoryStatsDto(
            @JsonProperty("RSS") long rss,
            @JsonProperty("Cache") long cache,
            @JsonProperty("Swap") long swap,
            @JsonProperty("MappedFile") long mappedFile,
            @JsonProperty("Usage") long usage,
            @JsonProperty("MaxUsage") long maxUsage,
            @JsonProperty("KernelUsage") long kernelUsage,
            @JsonProperty("KernelMaxUsage") long kernelMaxUsage,
            @JsonProperty("Measured") List<String> measured) {

        static MemoryStatsDto of(TaskMemoryStats m, List<String> measured) {
            return new MemoryStatsDto(m.rss(), m.cache(), m.swap(), m.mappedFile(), m.usage(), m.maxUsage(), m.kernelUsage(),
                    m.kernelMaxUsage(), measured);
        }
    }

    record CpuStatsDto(
            @JsonProperty("SystemMode") double systemMode,
            @JsonProperty("UserMode") double userMode,
            @JsonProperty("TotalTicks") double totalTicks,
            @JsonProperty("ThrottledPeriods") long throttledPeriods,
            @JsonProperty("ThrottledTime") long throttledTime,
            @JsonProperty("Percent") double percent,
            @JsonProperty("Measured") List<String> measured) {

        static CpuStatsDto of(TaskCpuStats c, List<String> measured) {
            return new CpuStatsDto(c.systemMode(), c.userMode(), c.totalTicks(), c.throttledPeriods(), c.throttledTime(), c.percent(),
                    measured);
        }
    }

    private static List<String> nullIfEmpty(List<String> list) {
        return list.isEmpty() ? null : list;
    }
}
