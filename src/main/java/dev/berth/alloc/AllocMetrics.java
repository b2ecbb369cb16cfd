package dev.berth.alloc;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import dev.berth.alloc.task.TaskState;
import dev.berth.config.MetricsNaming;

/**
 * Every alloc meter in one place, so switching to the shared naming helper (Nomad names in nomad mode) is one edit.
 * Names follow Prometheus conventions ({@code berth_} prefix, base units); labels are bounded (no alloc IDs).
 */
public final class AllocMetrics {

    static final List<String> STATUSES = List.of(ClientStatus.PENDING, ClientStatus.RUNNING, ClientStatus.COMPLETE, ClientStatus.FAILED);
    static final List<String> TASK_STATES = List.of(TaskState.PENDING, TaskState.RUNNING, TaskState.DEAD);

    private final MeterRegistry registry;
    private final boolean nomad;
    private final Counter restarts;
    private final Counter oomKills;
    private final Timer startLatency;

    /**
     * @param runners   the live runners (read on scrape)
     * @param capacity  node capacity for the unallocated gauges
     * @param allocated allocated {cpuMhz, memoryMb} of non-terminal allocs
     */
    public AllocMetrics(MeterRegistry registry, Supplier<Collection<AllocRunner>> runners, NodeCapacity capacity, Supplier<long[]> allocated) {
        this(registry, runners, capacity, allocated, MetricsNaming.PROMETHEUS);
    }

    /** With {@link MetricsNaming#NOMAD}, the node gauges use Nomad's names and units (§3.3): MB, MHz, one gauge per status. */
    public AllocMetrics(MeterRegistry registry, Supplier<Collection<AllocRunner>> runners, NodeCapacity capacity, Supplier<long[]> allocated,
                        MetricsNaming naming) {
        this.registry = registry;
        this.nomad = naming == MetricsNaming.NOMAD;
        if (nomad) {
            for (String status : List.of(ClientStatus.PENDING, ClientStatus.RUNNING)) {
                Gauge.builder("nomad.client.allocations." + status, () -> runners.get().stream()
                        .filter(r -> r.record().clientStatus().equals(status)).count()).register(registry);
            }
            Gauge.builder("nomad.client.allocations.terminal", () -> runners.get().stream()
                    .filter(r -> ClientStatus.terminal(r.record().clientStatus())).count()).register(registry);
            for (String state : TASK_STATES) {
                Gauge.builder("nomad.client.tasks." + state, () -> runners.get().stream()
                        .flatMap(r -> r.taskStates().values().stream()).filter(st -> st.state().equals(state)).count()).register(registry);
            }
            Gauge.builder("nomad.client.allocated.cpu", () -> allocated.get()[0]).register(registry);
            Gauge.builder("nomad.client.allocated.memory", () -> allocated.get()[1]).register(registry);
            Gauge.builder("nomad.client.unallocated.cpu", () -> capacity.cpuMhz() - allocated.get()[0]).register(registry);
            Gauge.builder("nomad.client.unallocated.memory", () -> capacity.memoryMb() - allocated.get()[1]).register(registry);
            this.restarts = Counter.builder("nomad.client.allocs.restart").register(registry);
            this.oomKills = Counter.builder("nomad.client.allocs.oom_killed").register(registry);
            this.startLatency = Timer.builder("berth.client.alloc.start.latency").publishPercentiles(0.5, 0.99).register(registry);
            return;
        }
        for (String status : STATUSES) {
            Gauge.builder("berth.client.allocations", () -> runners.get().stream().filter(r -> r.record().clientStatus().equals(status)).count())
                    .description("Allocations on this node by client status").tag("status", status).register(registry);
        }
        for (String state : TASK_STATES) {
            Gauge.builder("berth.client.tasks", () -> runners.get().stream()
                            .flatMap(r -> r.taskStates().values().stream()).filter(s -> s.state().equals(state)).count())
                    .description("Tasks on this node by state").tag("state", state).register(registry);
        }
        Gauge.builder("berth.client.allocated.cpu", () -> allocated.get()[0]).description("CPU allocated to non-terminal allocs")
                .baseUnit("megahertz").register(registry);
        Gauge.builder("berth.client.allocated.memory", () -> allocated.get()[1] * 1024 * 1024)
                .description("Memory allocated to non-terminal allocs").baseUnit("bytes").register(registry);
        Gauge.builder("berth.client.unallocated.cpu", () -> capacity.cpuMhz() - allocated.get()[0])
                .description("CPU not allocated").baseUnit("megahertz").register(registry);
        Gauge.builder("berth.client.unallocated.memory", () -> (capacity.memoryMb() - allocated.get()[1]) * 1024 * 1024)
                .description("Memory not allocated").baseUnit("bytes").register(registry);
        this.restarts = Counter.builder("berth.client.task.restarts").description("Task restarts (Restarting events)").register(registry);
        this.oomKills = Counter.builder("berth.client.task.oom.kills").description("Task exits by the OOM killer").register(registry);
        this.startLatency = Timer.builder("berth.client.alloc.start.latency")
                .description("From the PUT of a new alloc to its first task Started event").publishPercentiles(0.5, 0.99)
                .register(registry);
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

    void hook(String hook, String phase, long nanos) {
        Timer.builder(nomad ? "nomad.client." + (phase.equals("prerun") ? "alloc_hook." : "task_hook.") + phase + ".elapsed"
                        : "berth.client.hook.duration").description("Duration of alloc and task hook calls")
                .tags("hook", hook, "phase", phase).register(registry).record(Duration.ofNanos(nanos));
    }
}
