package dev.berth.alloc.runner;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.berth.alloc.task.TaskRunner;
import dev.berth.alloc.task.TaskState;

/**
 * The task runners of one alloc: the active ones in the group's order, the runners an update removed while this agent ran
 * (killed, kept so their final state stays visible) and the final states of tasks an update removed before the agent
 * restarted (no runner; from the store).
 * Copy-on-write: readers on any thread get a consistent snapshot without locking; writers synchronize.
 */
final class TaskRunnerSet {

    private volatile Map<String, TaskRunner> active = Map.of();
    private volatile Map<String, TaskRunner> removedByUpdate = Map.of();
    private volatile Map<String, TaskState> removedBeforeRestart = Map.of();

    synchronized void add(TaskRunner tr) {
        Map<String, TaskRunner> next = new LinkedHashMap<>(active);
        next.put(tr.name(), tr);
        active = Collections.unmodifiableMap(next);
        if (removedByUpdate.containsKey(tr.name())) {
            Map<String, TaskRunner> r = new LinkedHashMap<>(removedByUpdate);
            r.remove(tr.name());
            removedByUpdate = Collections.unmodifiableMap(r);
        }
        if (removedBeforeRestart.containsKey(tr.name())) {
            Map<String, TaskState> r = new LinkedHashMap<>(removedBeforeRestart);
            r.remove(tr.name());
            removedBeforeRestart = Collections.unmodifiableMap(r);
        }
    }

    /**
     * Takes the runner of a task an update removed out of the active ones: with {@code keep} (it ran) into the removed
     * runners, else forgotten. Returns it, or null.
     */
    synchronized TaskRunner removeForUpdate(String name, boolean keep) {
        TaskRunner tr = active.get(name);
        if (tr == null) {
            return null;
        }
        Map<String, TaskRunner> next = new LinkedHashMap<>(active);
        next.remove(name);
        active = Collections.unmodifiableMap(next);
        if (keep) {
            Map<String, TaskRunner> r = new LinkedHashMap<>(removedByUpdate);
            r.put(name, tr);
            removedByUpdate = Collections.unmodifiableMap(r);
        }
        return tr;
    }

    /** Records the final state of a task an update removed before the agent restarted. */
    synchronized void addRemovedBeforeRestart(String name, TaskState state) {
        Map<String, TaskState> r = new LinkedHashMap<>(removedBeforeRestart);
        r.put(name, state);
        removedBeforeRestart = Collections.unmodifiableMap(r);
    }

    /** An active runner, or null. */
    TaskRunner get(String name) {
        return active.get(name);
    }

    boolean isActive(String name) {
        return active.containsKey(name);
    }

    Collection<TaskRunner> active() {
        return active.values();
    }

    /** Active and removed runners: everything that may still have to be killed, waited for or shut down. */
    List<TaskRunner> all() {
        List<TaskRunner> all = new ArrayList<>(active.values());
        all.addAll(removedByUpdate.values());
        return all;
    }

    /**
     * Every task's state: the active ones in the group's order, then the removed runners, then the tasks removed before
     * the agent restarted.
     */
    Map<String, TaskState> states() {
        Map<String, TaskState> m = new LinkedHashMap<>();
        active.forEach((name, tr) -> m.put(name, tr.state()));
        removedByUpdate.forEach((name, tr) -> m.putIfAbsent(name, tr.state()));
        removedBeforeRestart.forEach(m::putIfAbsent);
        return m;
    }

    /** {@link #states()} with {@code name}'s state replaced by {@code state} (the one being reported). */
    Collection<TaskState> statesWith(String name, TaskState state) {
        Map<String, TaskState> m = states();
        m.put(name, state);
        return m.values();
    }

    /**
     * Force-restarts every active task concurrently and waits until the old processes exited; a task that is pending or
     * finished for good is handed to {@code notRunning} (the coordinator must not wait for it).
     */
    void forceRestartActive(String reason, java.util.function.Consumer<String> notRunning) throws InterruptedException {
        try (var exec = java.util.concurrent.Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("berth-restart-", 0).factory())) {
            for (TaskRunner tr : active()) {
                exec.submit(() -> {
                    try {
                        tr.forceRestart(reason);
                    } catch (TaskRunner.TaskNotRunningException e) {
                        notRunning.accept(tr.name());
                    }
                    return null;
                });
            }
        }
    }
}
