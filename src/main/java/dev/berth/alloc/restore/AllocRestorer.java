package dev.berth.alloc.restore;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import dev.berth.config.BerthMetric;
import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricScope;

/**
 * Start-up crash reconciliation (issue 7): runs the {@link Reconciler} synchronously in {@link #start()}, after the
 * fingerprint phases and before the alloc manager restores the persisted allocations (its lifecycle, phase 0) and before
 * the web server starts — so the API is not reachable, and readiness stays {@code REFUSING_TRAFFIC}, until every task
 * process is either accounted for or killed. Stopping does nothing: agent shutdown leaves tasks running.
 */
public final class AllocRestorer implements SmartLifecycle {

    /** After fingerprinting (-1000, -900), before the alloc restore (0) and the web server. */
    static final int PHASE = -100;

    private static final Logger log = LoggerFactory.getLogger(AllocRestorer.class);
    private static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();

    private final Reconciler reconciler;
    private final Timer timer;
    private volatile boolean running;

    /** Berth's own metric: Nomad has no equivalent, so it is absent in {@code nomad} naming mode. */
    static final BerthMetric RECONCILE_DURATION = BerthMetric.prometheusOnly("berth.alloc.reconcile.duration",
            "Time to reconcile live task processes with the state database at start-up");

    public AllocRestorer(Reconciler reconciler, BerthMetrics metrics) {
        this.reconciler = reconciler;
        this.timer = metrics.timer(RECONCILE_DURATION, MetricScope.NODE, Tags.empty());
    }

    @Override
    public void start() {
        long t0 = System.nanoTime();
        long cpu0 = CPU.getCurrentThreadCpuTime();
        try {
            Reconciler.Report report = reconciler.reconcile();
            long nanos = System.nanoTime() - t0;
            timer.record(nanos, TimeUnit.NANOSECONDS);
            // CPU time too: on a loaded host the wall time says more about the neighbours than about us
            log.info("reconciled task processes: live={} accountedFor={} killedUnknown={} killFailures={} took={}ms cpu={}ms",
                    report.live(), report.known(), report.killed(), report.failed(), nanos / 1_000_000,
                    (CPU.getCurrentThreadCpuTime() - cpu0) / 1_000_000);
        } catch (RuntimeException e) {
            log.error("crash reconciliation failed; restoring anyway", e);
        }
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
}
