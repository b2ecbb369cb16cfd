package dev.berth.alloc.task;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import dev.berth.alloc.spec.TaskSpec;

/**
 * Gates task starts by lifecycle, as Nomad's {@code allocrunner/tasklifecycle} coordinator FSM: {@code init} (every task
 * pending) → {@code prestart} (prestart tasks run; done when every ephemeral prestart task finished successfully and every
 * prestart sidecar runs) → {@code main} (done when no main task is pending) → {@code poststart} (done when the ephemeral
 * poststart tasks are dead) → {@code wait_alloc} → {@code poststop}, reached as soon as every non-poststop task is dead.
 * The FSM never goes back, except {@link #restart()} (an alloc-wide restart) which returns to {@code init}. Every start of
 * a task, restarts included, passes its gate.
 *
 * <p>Two deliberate differences from Nomad: a prestart sidecar that finished successfully counts as done, and once the FSM
 * is past a stage that stage's gate stays open (Nomad closes the ephemeral prestart/poststart gates), so a task an update
 * adds to a running alloc starts at once instead of waiting forever. Tasks that never restart themselves are unaffected: a
 * dead ephemeral task only runs again through an alloc-wide restart, which goes through {@code init}.
 */
public final class TaskCoordinator {

    /** The FSM states. */
    enum Stage { INIT, PRESTART, MAIN, POSTSTART, WAIT_ALLOC, POSTSTOP }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    // guarded by lock
    private final Map<String, TaskSpec> tasks = new LinkedHashMap<>();
    private final Map<String, TaskState> states = new HashMap<>();
    private final Set<String> notRestarting = new HashSet<>(); // init does not wait for these
    private Stage stage;

    /** With {@code restoring}, starts at {@code prestart} (Nomad's Restore): restored tasks may already run. */
    public TaskCoordinator(List<TaskSpec> taskSpecs, boolean restoring) {
        for (TaskSpec t : taskSpecs) {
            tasks.put(t.name(), t);
            states.put(t.name(), TaskState.initial());
        }
        stage = restoring ? Stage.PRESTART : Stage.INIT;
        advance();
    }

    public void taskStateChanged(String task, TaskState state) {
        lock.lock();
        try {
            if (tasks.containsKey(task)) {
                states.put(task, state);
                advance();
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Wakes waiters so they re-check their cancel futures. */
    public void wake() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * An alloc-wide restart: back to {@code init}, which every gate waits on until each task is pending again, except the
     * tasks reported through {@link #taskNotRestarting}.
     */
    public void restart() {
        lock.lock();
        try {
            stage = Stage.INIT;
            notRestarting.clear();
            advance();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The task refused the alloc-wide restart (its run is over, or it is starting): {@code init} stops waiting for it to
     * become pending.
     */
    public void taskNotRestarting(String task) {
        lock.lock();
        try {
            notRestarting.add(task);
            advance();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Adds a task (an alloc update added it).
     *
     * @return false, and nothing added, once the alloc is done ({@code poststop}): no new task may start then
     */
    public boolean add(TaskSpec task) {
        lock.lock();
        try {
            if (stage == Stage.POSTSTOP) {
                return false;
            }
            tasks.put(task.name(), task);
            states.put(task.name(), TaskState.initial());
            advance();
            changed.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Forgets a task (an alloc update removed it): no stage waits for it any more. */
    public void remove(String task) {
        lock.lock();
        try {
            tasks.remove(task);
            states.remove(task);
            notRestarting.remove(task);
            advance();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Blocks until {@code task} may start or one of {@code cancels} completes.
     *
     * @return true if it may start, false if cancelled
     */
    public boolean awaitStart(String task, List<CompletableFuture<?>> cancels) throws InterruptedException {
        lock.lock();
        try {
            while (true) {
                if (cancels.stream().anyMatch(CompletableFuture::isDone)) {
                    return false;
                }
                TaskSpec spec = tasks.get(task);
                if (spec != null && allowed(spec)) {
                    return true;
                }
                // The timeout is only a safety net: every state change and cancel signals.
                changed.await(Duration.ofSeconds(1).toMillis(), TimeUnit.MILLISECONDS);
            }
        } finally {
            lock.unlock();
        }
    }

    Stage stage() {
        lock.lock();
        try {
            return stage;
        } finally {
            lock.unlock();
        }
    }

    /** Whether the gate of {@code task}'s lifecycle stage is open. Lock held. */
    boolean allowed(TaskSpec task) {
        String hook = task.hook();
        if ("poststop".equals(hook)) {
            return stage == Stage.POSTSTOP;
        }
        if ("prestart".equals(hook)) {
            return stage != Stage.INIT && stage != Stage.POSTSTOP;
        }
        if ("poststart".equals(hook)) {
            return stage == Stage.POSTSTART || stage == Stage.WAIT_ALLOC;
        }
        return stage == Stage.MAIN || stage == Stage.POSTSTART || stage == Stage.WAIT_ALLOC;
    }

    /** Moves the FSM as far as the task states allow. Lock held. */
    private void advance() {
        while (true) {
            Stage next = next();
            if (next == stage) {
                return;
            }
            stage = next;
        }
    }

    private Stage next() {
        if (allocDone()) {
            return Stage.POSTSTOP;
        }
        return switch (stage) {
            case INIT -> initDone() ? Stage.PRESTART : Stage.INIT;
            case PRESTART -> prestartDone() ? Stage.MAIN : Stage.PRESTART;
            case MAIN -> tasks.values().stream().filter(TaskSpec::isMain).anyMatch(t -> states.get(t.name()).pending())
                    ? Stage.MAIN : Stage.POSTSTART;
            case POSTSTART -> tasks.values().stream().filter(t -> "poststart".equals(t.hook()) && !t.sidecar())
                    .allMatch(t -> states.get(t.name()).dead()) ? Stage.WAIT_ALLOC : Stage.POSTSTART;
            case WAIT_ALLOC, POSTSTOP -> stage;
        };
    }

    private boolean initDone() {
        return tasks.keySet().stream().filter(t -> !notRestarting.contains(t)).allMatch(t -> states.get(t).pending());
    }

    private boolean prestartDone() {
        return tasks.values().stream().filter(t -> "prestart".equals(t.hook())).allMatch(t -> {
            TaskState s = states.get(t.name());
            return t.sidecar() ? s.running() || (s.dead() && !s.failed()) : s.dead() && !s.failed();
        });
    }

    /** Every non-poststop task is dead (and there is at least one task). */
    private boolean allocDone() {
        return !tasks.isEmpty() && tasks.values().stream().filter(t -> !t.isPoststop()).allMatch(t -> states.get(t.name()).dead());
    }
}
