package dev.berth.alloc;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.NetworkSpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;

/**
 * Start-up restore (issue 7): reconciles live task processes with the state database ({@link Reconciler}), then restores
 * every persisted allocation ({@link AllocManager#restore}). It runs synchronously inside {@link #start()} during context
 * refresh, in a phase after the drivers and before the web server starts, so the API is not reachable — and readiness
 * stays {@code REFUSING_TRAFFIC} — until every task was reattached. Stopping does nothing here: the alloc manager's own
 * lifecycle ends the runners on shutdown and leaves tasks running.
 */
final class AllocRestorer implements SmartLifecycle {

    /** Before the web server ({@code DEFAULT_PHASE - 1024}) and its graceful shutdown ({@code - 2048}). */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    private static final Logger log = LoggerFactory.getLogger(AllocRestorer.class);

    private final AllocManager manager;
    private final Reconciler reconciler;
    private final Timer timer;
    private volatile boolean running;

    AllocRestorer(AllocManager manager, Reconciler reconciler, MeterRegistry registry) {
        this.manager = manager;
        this.reconciler = reconciler;
        this.timer = Timer.builder("berth.alloc.restore.duration")
                .description("Time to reconcile live task processes and restore persisted allocations at start-up")
                .register(registry);
    }

    @Override
    public void start() {
        long t0 = System.nanoTime();
        Reconciler.Report report;
        try {
            report = reconciler.reconcile();
        } catch (RuntimeException e) {
            log.error("crash reconciliation failed; restoring anyway", e);
            report = new Reconciler.Report(0, 0, 0, 0);
        }
        int restored = manager.restore();
        long nanos = System.nanoTime() - t0;
        timer.record(nanos, TimeUnit.NANOSECONDS);
        log.info("restore done: allocs={} liveTaskProcesses={} reattachable={} killedUnknown={} killFailures={} took={}ms",
                restored, report.live(), report.known(), report.killed(), report.failed(), nanos / 1_000_000);
        running = true;
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /** Every host port the alloc was assigned (group and task networks, reserved and dynamic). */
    static List<Integer> portsOf(AllocationSpec spec) {
        List<Integer> ports = new ArrayList<>();
        TaskGroupSpec group = spec.group().orElse(null);
        if (group == null) {
            return ports;
        }
        addPorts(group.networks(), ports);
        for (TaskSpec t : group.tasks()) {
            if (t.resources() != null) {
                addPorts(t.resources().networks(), ports);
            }
        }
        return ports;
    }

    private static void addPorts(List<NetworkSpec> nets, List<Integer> out) {
        if (nets == null) {
            return;
        }
        for (NetworkSpec n : nets) {
            for (List<NetworkSpec.PortSpec> list : java.util.Arrays.asList(n.reservedPorts(), n.dynamicPorts())) {
                if (list != null) {
                    list.stream().map(NetworkSpec.PortSpec::value).filter(v -> v != null && v > 0).forEach(out::add);
                }
            }
        }
    }
}
