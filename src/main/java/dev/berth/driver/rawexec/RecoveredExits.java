package dev.berth.driver.rawexec;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.driver.ExitResult;
import dev.berth.driver.TaskHandles;
import dev.berth.host.ProcStat;
import dev.berth.host.Signals;
import dev.berth.host.cgroup.CgroupManager;

/**
 * Watches the tasks a raw_exec driver recovered after an agent restart (not its children: no wait status) until their
 * pid is gone, then completes their exit from the exit file. Where the kernel has pidfds, each is one descriptor in the
 * spawner's epoll set and costs nothing while the task runs; otherwise, or when that fails, its {@code /proc/<pid>/stat}
 * is read every poll interval (at 1,000 restored tasks that polling cost ~12 % of a core).
 */
final class RecoveredExits {

    private static final Logger log = LoggerFactory.getLogger(RecoveredExits.class);

    private final ScheduledExecutorService poller;
    private final Duration pollInterval;
    /** Null when tasks run without a cgroup. */
    private final CgroupManager cgroups;

    RecoveredExits(ScheduledExecutorService poller, Duration pollInterval, CgroupManager cgroups) {
        this.poller = poller;
        this.pollInterval = pollInterval;
        this.cgroups = cgroups;
    }

    /** Watches a running recovered task: through {@code spawner}'s pidfds when it has them, else by polling. */
    void watch(RawTask task, SpawnedChildren spawner) {
        if (spawner == null || !spawner.watchExit(task.pid, task.startTicks, () -> pollUntilGone(task))) {
            pollEvery(task);
        }
    }

    /** The pidfd fired: confirm and complete; one still running (cannot happen once it fired) goes on being polled. */
    private void pollUntilGone(RawTask task) {
        poll(task);
        if (!task.exit.isDone()) {
            pollEvery(task);
        }
    }

    private void pollEvery(RawTask task) {
        task.watch = poller.scheduleWithFixedDelay(() -> poll(task), pollInterval.toNanos(), pollInterval.toNanos(),
                TimeUnit.NANOSECONDS);
    }

    /** Completes a recovered task's exit once its pid is gone (or a zombie, or recycled). Catches everything. */
    void poll(RawTask task) {
        try {
            if (ProcStat.isRunning(task.pid, task.startTicks)) {
                return;
            }
            ExitResult exit = ExitShim.read(task.exitFile).orElseGet(() -> task.killedByAgent
                    ? new ExitResult(128 + Signals.SIGKILL, Signals.SIGKILL, false, null)
                    : new ExitResult(0, 0, false, "task exited while detached; its exit status was not recorded"));
            if (cgroups != null) {
                cgroups.find(task.handle.driverState().get(TaskHandles.CGROUP)).ifPresent(Cleanup::removeQuietly);
            }
            task.exit.complete(exit);
            task.cancelWatch();
        } catch (RuntimeException ex) {
            log.warn("checking recovered task {} failed; will retry", task.handle.taskId(), ex);
        }
    }

    void close() {
        poller.shutdownNow();
    }
}
