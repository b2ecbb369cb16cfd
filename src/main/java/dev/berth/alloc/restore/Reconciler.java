package dev.berth.alloc.restore;

import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.List;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.alloc.store.AllocRecord;
import dev.berth.alloc.store.AllocStateStore;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskState;
import dev.berth.driver.DriverManager;
import dev.berth.driver.TaskDriver;
import dev.berth.driver.TaskHandle;

/**
 * Crash reconciliation at start-up, before any alloc is restored: what runs on the host is compared with what
 * the state database says. Every live task process (found by its driver, {@link TaskDriver#liveTasks}) that no persisted
 * handle accounts for is killed: it was started just before a crash (its handle never written), belongs to an allocation
 * that was destroyed, or to a state database that was lost. The restore then starts such a task again where its
 * allocation still wants it, so no task ever runs twice and none is left running unknown.
 *
 * <p>A stopped allocation (desired stop or evict), or one whose destroy was asked for, keeps no process: the agent may have died between persisting the stop
 * and killing its tasks, so its processes are killed too and its live tasks are recorded dead ({@code Killed}).
 *
 * <p>A task is identified as its driver says ({@link TaskDriver#taskIdentity}): a process by pid and start ticks together
 * (a recycled pid has other start ticks), a container by its ID.
 */
public final class Reconciler {

    private static final Logger log = LoggerFactory.getLogger(Reconciler.class);

    /** What reconciliation did. */
    record Report(int live, int known, int killed, int failed) {
    }

    private final AllocStateStore store;
    private final DriverManager drivers;
    private final Clock clock;

    public Reconciler(AllocStateStore store, DriverManager drivers, Clock clock) {
        this.store = store;
        this.drivers = drivers;
        this.clock = clock;
    }

    Report reconcile() {
        // A stopped alloc (desired stop/evict) is restored without running its tasks: a process it still has (the agent
        // died between persisting the stop and killing it) is not accounted for, so it is killed below.
        Set<String> stopped = new HashSet<>();
        for (AllocRecord rec : store.allocs()) {
            if (rec.spec().desiredTerminal()) {
                stopped.add(rec.id());
            }
        }
        // A destroy the last agent did not finish: its processes are killed like those of a stopped alloc; the
        // restore then finishes the destroy (hooks, tombstone) instead of running it again.
        stopped.addAll(store.destroying());
        Set<String> known = knownProcesses(stopped);
        int live = 0;
        int kept = 0;
        int killed = 0;
        int failed = 0;
        for (TaskDriver driver : drivers.all()) {
            List<TaskHandle> found;
            try {
                found = driver.liveTasks();
            } catch (RuntimeException e) {
                log.error("could not list live tasks of driver {}; unknown tasks of it may keep running", driver.name(), e);
                continue;
            }
            for (TaskHandle h : found) {
                live++;
                if (known.contains(driver.name() + ":" + driver.taskIdentity(h))) {
                    kept++;
                    continue;
                }
                try {
                    TaskHandle attached = driver.recover(h);
                    driver.destroy(attached, true);
                    killed++;
                    log.warn("killed a task no allocation accounts for: driver={} task={} process={}", driver.name(), h.taskId(),
                            driver.process(h));
                } catch (Exception e) {
                    failed++;
                    log.error("could not kill unknown task: driver={} task={} process={}", driver.name(), h.taskId(), driver.process(h), e);
                }
            }
        }
        markStoppedTasksDead(stopped);
        return new Report(live, kept, killed, failed);
    }

    /** Tasks of stopped allocs that were still live in the state are dead now (their processes were killed above). */
    private void markStoppedTasksDead(Set<String> stopped) {
        for (String id : stopped) {
            Map<String, TaskState> states = store.taskStates(id);
            if (states.values().stream().allMatch(TaskState::dead)) {
                continue;
            }
            Instant now = clock.instant();
            Map<String, TaskState> updated = new HashMap<>(states);
            states.forEach((task, st) -> {
                if (!st.dead()) {
                    TaskState dead = st.withEvent(TaskEvent.killed(now, null)).withState(TaskState.DEAD, now);
                    store.putTaskState(id, task, dead);
                    updated.put(task, dead);
                }
            });
            store.alloc(id).ifPresent(rec -> {
                ClientStatus.Derived status = ClientStatus.derive(updated.values());
                store.putAlloc(rec.withStatus(status.status(), status.description()));
            });
            log.info("tasks of a stopped allocation marked dead at start-up: alloc={}", id);
        }
    }

    /**
     * {@code driver:identity} ({@link TaskDriver#taskIdentity}) of every persisted handle of a task its stored allocation
     * still lists: a task an update removed whose kill the agent did not finish (it stopped meanwhile) is not accounted
     * for, so its process is killed.
     */
    private Set<String> knownProcesses(Set<String> stoppedAllocs) {
        Map<String, Set<String>> listed = new HashMap<>();
        for (AllocRecord rec : store.allocs()) {
            listed.put(rec.id(), rec.spec().group().map(g -> g.tasks().stream().map(t -> t.name())
                    .collect(java.util.stream.Collectors.toSet())).orElse(Set.of()));
        }
        Set<String> known = new HashSet<>();
        store.allTaskLocalStates().forEach((allocAndTask, local) -> {
            int slash = allocAndTask.indexOf('/');
            String allocId = allocAndTask.substring(0, slash);
            String task = allocAndTask.substring(slash + 1);
            if (local.handle() != null && !stoppedAllocs.contains(allocId) && listed.getOrDefault(allocId, Set.of()).contains(task)) {
                TaskHandle h = local.handle();
                // a driver that is gone lists no live task, so its handles need no identity that could match one
                String identity = drivers.driver(h.driver()).map(d -> d.taskIdentity(h)).orElse(h.taskId());
                known.add(h.driver() + ":" + identity);
            }
        });
        return known;
    }
}
