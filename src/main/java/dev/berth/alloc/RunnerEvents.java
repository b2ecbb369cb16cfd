package dev.berth.alloc;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.alloc.admission.NodeAdmission;
import dev.berth.alloc.runner.AllocRunnerContext;
import dev.berth.alloc.runner.AllocRunners;
import dev.berth.alloc.task.TaskState;

/**
 * What the node does when its runners report: metrics, start latency (from the PUT of a new alloc to its first task
 * started), resources given back when an alloc finishes, and the runner forgotten once it is destroyed.
 */
final class RunnerEvents implements AllocRunnerContext.AllocListener {

    private static final Logger log = LoggerFactory.getLogger(AllocManager.class);

    private final AllocRunners runners;
    private final NodeAdmission admission;
    private final AllocMetrics metrics;
    private final Clock clock;
    private final AllocChanges changes;
    private final Map<String, Instant> submittedAt = new ConcurrentHashMap<>();

    RunnerEvents(AllocRunners runners, NodeAdmission admission, AllocMetrics metrics, Clock clock, AllocChanges changes) {
        this.changes = changes;
        this.runners = runners;
        this.admission = admission;
        this.metrics = metrics;
        this.clock = clock;
    }

    /** A new allocation was accepted: its start latency runs from now. */
    void submitted(String allocId) {
        submittedAt.put(allocId, clock.instant());
    }

    @Override
    public void taskStarted(String allocId, String task) {
        Instant put = submittedAt.remove(allocId);
        if (put != null) {
            metrics.started(Duration.between(put, clock.instant()));
        }
    }

    @Override
    public void taskStateChanged(String allocId, String task, TaskState oldState, TaskState newState) {
        changes.touched(allocId);
    }

    @Override
    public void taskRestarting(String allocId, String task) {
        metrics.restarted();
    }

    @Override
    public void taskOomKilled(String allocId, String task) {
        metrics.oomKilled();
    }

    @Override
    public void hookTimed(String hook, String phase, long nanos) {
        metrics.hook(hook, phase, nanos);
    }

    @Override
    public void allocFinished(String allocId) {
        admission.releasePorts(allocId);
    }

    @Override
    public void allocDestroyed(String allocId) {
        // Devices stay reserved while the alloc exists (also when terminal), as Nomad keeps them until GC/destroy.
        admission.release(allocId);
        changes.removed(allocId, runners.find(allocId).map(r -> r.record().spec().namespace()).orElse(null));
        runners.remove(allocId);
        submittedAt.remove(allocId);
        log.info("allocation destroyed: alloc={}", allocId);
    }
}
