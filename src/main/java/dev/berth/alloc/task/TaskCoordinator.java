package dev.berth.alloc.task;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import dev.berth.alloc.spec.TaskSpec;

/**
 * Gates task starts by lifecycle (§5.11): prestart tasks start at once; main tasks once every ephemeral prestart task
 * finished successfully and every prestart sidecar runs; poststart tasks once no main task is pending; poststop tasks
 * once every other task is dead. Only the first start of a task is gated.
 */
public final class TaskCoordinator {

    private final Map<String, TaskSpec> tasks = new HashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    // guarded by lock
    private final Map<String, TaskState> states = new HashMap<>();

    public TaskCoordinator(List<TaskSpec> taskSpecs) {
        for (TaskSpec t : taskSpecs) {
            tasks.put(t.name(), t);
            states.put(t.name(), TaskState.initial());
        }
    }

    public void taskStateChanged(String task, TaskState state) {
        lock.lock();
        try {
            states.put(task, state);
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
                if (allowed(tasks.get(task))) {
                    return true;
                }
                // The timeout is only a safety net: every state change and cancel signals.
                changed.await(Duration.ofSeconds(1).toMillis(), TimeUnit.MILLISECONDS);
            }
        } finally {
            lock.unlock();
        }
    }

    boolean allowed(TaskSpec task) {
        String hook = task.hook();
        if ("prestart".equals(hook)) {
            return true;
        }
        if ("poststop".equals(hook)) {
            return tasks.values().stream().filter(t -> !t.isPoststop()).allMatch(t -> states.get(t.name()).dead());
        }
        boolean prestartDone = tasks.values().stream().filter(t -> "prestart".equals(t.hook())).allMatch(t -> {
            TaskState s = states.get(t.name());
            return t.sidecar() ? s.running() || (s.dead() && !s.failed()) : s.dead() && !s.failed();
        });
        if (!prestartDone) {
            return false;
        }
        if ("poststart".equals(hook)) {
            return tasks.values().stream().filter(TaskSpec::isMain).noneMatch(t -> states.get(t.name()).pending());
        }
        return true;
    }
}
