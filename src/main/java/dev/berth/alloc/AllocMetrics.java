package dev.berth.alloc;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import dev.berth.alloc.admission.NodeCapacity;
import dev.berth.alloc.admission.Usage;
import dev.berth.alloc.runner.AllocRunner;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.alloc.task.TaskState;
import dev.berth.config.BerthMetric;
import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricScope;
import dev.berth.config.MetricsNaming;

/**
 * Every alloc meter, registered through the shared {@link BerthMetrics} helper so both naming modes work: Prometheus
 * conventions ({@code berth_client_allocations{status}}, base units) or Nomad's names
 * ({@code nomad_client_allocations_running}, MB/MHz, node labels). Labels are bounded (no alloc IDs).
 */
public final class AllocMetrics {

    static final List<String> STATUSES = List.of(ClientStatus.PENDING, ClientStatus.RUNNING, ClientStatus.COMPLETE, ClientStatus.FAILED);
    static final List<String> TASK_STATES = List.of(TaskState.PENDING, TaskState.RUNNING, TaskState.DEAD);

    static final BerthMetric ALLOCATIONS = BerthMetric.prometheusOnly("berth.client.allocations", "Allocations on this node by client status");
    static final BerthMetric TASKS = BerthMetric.prometheusOnly("berth.client.tasks", "Tasks on this node by state");
    static final BerthMetric ALLOCATED_CPU = BerthMetric.of("berth.client.allocated.cpu", "nomad.client.allocated.cpu",
            "CPU allocated to non-terminal allocations").withBaseUnit("megahertz");
    static final BerthMetric UNALLOCATED_CPU = BerthMetric.of("berth.client.unallocated.cpu", "nomad.client.unallocated.cpu",
            "CPU not allocated").withBaseUnit("megahertz");
    static final BerthMetric ALLOCATED_MEMORY = BerthMetric.of("berth.client.allocated.memory", "nomad.client.allocated.memory",
            "Memory allocated to non-terminal allocations").withPrometheusScale(1024 * 1024, "bytes");
    static final BerthMetric UNALLOCATED_MEMORY = BerthMetric.of("berth.client.unallocated.memory", "nomad.client.unallocated.memory",
            "Memory not allocated").withPrometheusScale(1024 * 1024, "bytes");
    static final BerthMetric RESTARTS = BerthMetric.of("berth.client.task.restarts", "nomad.client.allocs.restart",
            "Task restarts (Restarting events)");
    static final BerthMetric OOM_KILLS = BerthMetric.of("berth.client.task.oom.kills", "nomad.client.allocs.oom_killed",
            "Task exits by the OOM killer");
    static final BerthMetric HOOK_DURATION = BerthMetric.prometheusOnly("berth.client.hook.duration", "Duration of alloc and task hook calls");

    private final BerthMetrics metrics;
    private final Counter restarts;
    private final Counter oomKills;
    private final Timer startLatency;
    private final Map<String, Timer> hookTimers = new ConcurrentHashMap<>();

    /**
     * @param runners   the live runners (read on scrape; a scrape never triggers work beyond counting)
     * @param capacity  node capacity for the unallocated gauges
     * @param allocated what non-terminal allocs hold
     */
    public AllocMetrics(BerthMetrics metrics, Supplier<Collection<AllocRunner>> runners, NodeCapacity capacity, Supplier<Usage> allocated) {
        this.metrics = metrics;
        for (String status : STATUSES) {
            metrics.gauge(ALLOCATIONS, MetricScope.NODE, Tags.of("status", status), runners,
                    r -> r.get().stream().filter(a -> a.record().clientStatus().equals(status)).count());
        }
        for (String status : List.of(ClientStatus.PENDING, ClientStatus.RUNNING)) {
            metrics.gauge(BerthMetric.nomadOnly("nomad.client.allocations." + status), MetricScope.NODE, Tags.empty(), runners,
                    r -> r.get().stream().filter(a -> a.record().clientStatus().equals(status)).count());
        }
        metrics.gauge(BerthMetric.nomadOnly("nomad.client.allocations.terminal"), MetricScope.NODE, Tags.empty(), runners,
                r -> r.get().stream().filter(a -> ClientStatus.terminal(a.record().clientStatus())).count());
        for (String state : TASK_STATES) {
            metrics.gauge(TASKS, MetricScope.NODE, Tags.of("state", state), runners, r -> countTasks(r.get(), state));
            metrics.gauge(BerthMetric.nomadOnly("nomad.client.tasks." + state), MetricScope.NODE, Tags.empty(), runners,
                    r -> countTasks(r.get(), state));
        }
        metrics.gauge(ALLOCATED_CPU, MetricScope.NODE, Tags.empty(), allocated, a -> a.get().cpuMhz());
        metrics.gauge(ALLOCATED_MEMORY, MetricScope.NODE, Tags.empty(), allocated, a -> a.get().memoryMb());
        metrics.gauge(UNALLOCATED_CPU, MetricScope.NODE, Tags.empty(), allocated, a -> capacity.cpuMhz() - a.get().cpuMhz());
        metrics.gauge(UNALLOCATED_MEMORY, MetricScope.NODE, Tags.empty(), allocated, a -> capacity.memoryMb() - a.get().memoryMb());
        this.restarts = metrics.counter(RESTARTS, MetricScope.TASK, Tags.empty());
        this.oomKills = metrics.counter(OOM_KILLS, MetricScope.TASK, Tags.empty());
        // Percentiles are not part of the helper's contract; this agent-only timer registers them directly.
        this.startLatency = Timer.builder(metrics.naming() == MetricsNaming.NOMAD ? "nomad.client.allocs.start_latency" : "berth.client.alloc.start.latency")
                .description("From the PUT of a new alloc to its first task Started event").publishPercentiles(0.5, 0.99)
                .tags(metrics.tags(MetricScope.AGENT, Tags.empty())).register(metrics.registry());
    }

    private static long countTasks(Collection<AllocRunner> runners, String state) {
        return runners.stream().flatMap(r -> r.taskStates().values().stream()).filter(s -> s.state().equals(state)).count();
    }

    void restarted() {
        restarts.increment();
    }

    void oomKilled() {
        oomKills.increment();
    }

    void started(Duration sincePut) {
        startLatency.record(sincePut);
    }

    /** Prometheus: one timer by hook and phase. Nomad: its prerun/prestart {@code elapsed} timers with {@code hook_name}. */
    void hook(String hook, String phase, long nanos) {
        hookTimers.computeIfAbsent(hook + "/" + phase, k -> {
            if (metrics.naming() == MetricsNaming.NOMAD) {
                String kind = "prerun".equals(phase) ? "alloc_hook" : "task_hook";
                return metrics.timer(BerthMetric.nomadOnly("nomad.client." + kind + "." + phase + ".elapsed"), MetricScope.AGENT,
                        Tags.of("hook_name", hook));
            }
            return metrics.timer(HOOK_DURATION, MetricScope.AGENT, Tags.of("hook", hook, "phase", phase));
        }).record(Duration.ofNanos(nanos));
    }
}
