package dev.berth.alloc.task;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.driver.TaskHandle;

/**
 * The mutable side of one task runner, under one lock: its {@link TaskState}, the driver handle of the running process
 * and the restart request/acknowledgement pair that belongs to that process. Every state change is persisted before the
 * coordinator and the listener hear of it; the local state (handle, hook done-flags, restart counters) is persisted on
 * demand. Safe for use from any thread.
 *
 * <p>A write the state store could not make (it runs a write that lost a conflict again, so this is a store that keeps
 * failing) is logged and the run goes on: the task's process is what it is whether or not its state reached the store,
 * and the next write stores the whole state again. Failing the runner instead would leave its process without anyone
 * watching it.
 */
final class TaskStateRecorder {

    private static final Logger log = LoggerFactory.getLogger(TaskStateRecorder.class);

    private final String allocId;
    private final String task;
    private final TaskStateStore store;
    private final Consumer<TaskState> changed;
    private final Supplier<RestartTracker.Counters> counters;
    private final Map<String, HookState> hookStates = new ConcurrentHashMap<>();
    private final Object lock = new Object();
    // guarded by lock
    private TaskState state;
    private TaskHandle handle;
    private CompletableFuture<Boolean> restartSignal = new CompletableFuture<>();
    private CompletableFuture<Void> restartAck = new CompletableFuture<>();
    // non-null while the task is dead and waits for an alloc-wide restart
    private CompletableFuture<Void> allocRestart;

    /**
     * @param changed       told of every stored change (the coordinator, then the listener); must not block
     * @param counters      the restart counters to persist with the local state
     * @param restoredState the stored state of a restored task, else null (a new task starts pending)
     * @param restoredLocal the stored local state of a restored task (its done hooks are kept), else null
     */
    TaskStateRecorder(String allocId, String task, TaskStateStore store, Consumer<TaskState> changed,
                      Supplier<RestartTracker.Counters> counters, TaskState restoredState, TaskLocalState restoredLocal) {
        this.allocId = allocId;
        this.task = task;
        this.store = store;
        this.changed = changed;
        this.counters = counters;
        this.state = restoredState != null ? restoredState : TaskState.initial();
        if (restoredLocal != null) {
            hookStates.putAll(restoredLocal.hooks());
        }
    }

    TaskState state() {
        synchronized (lock) {
            return state;
        }
    }

    /** By hook name, the prestart hooks that reported done; the hook executor adds to it. */
    Map<String, HookState> hookStates() {
        return hookStates;
    }

    /** Applies a change; a real change is persisted, then told to the coordinator and the listener. */
    void update(Function<TaskState, TaskState> change) {
        TaskState next;
        synchronized (lock) {
            next = change.apply(state);
            if (next.equals(state)) {
                return;
            }
            state = next;
            persist("state", () -> store.putTaskState(allocId, task, next));
        }
        changed.accept(next);
    }

    void emit(TaskEvent event) {
        update(s -> s.withEvent(event));
    }

    TaskHandle handle() {
        synchronized (lock) {
            return handle;
        }
    }

    /** A process started or was re-attached: it gets a fresh restart request and acknowledgement. */
    void attach(TaskHandle h) {
        synchronized (lock) {
            handle = h;
            restartSignal = new CompletableFuture<>();
            restartAck = new CompletableFuture<>();
        }
    }

    /** Forgets the handle of an exited process and returns it (null when there was none). */
    TaskHandle detach() {
        synchronized (lock) {
            TaskHandle h = handle;
            handle = null;
            return h;
        }
    }

    /** The restart request of the current process: completed with {@code failure} by {@link #requestRestart}. */
    CompletableFuture<Boolean> restartSignal() {
        synchronized (lock) {
            return restartSignal;
        }
    }

    /**
     * Asks the running process to restart ({@code announce} first: its {@code Restart Signaled} event) and waits, at most
     * {@code wait}, until the run handled its exit ({@link #acknowledgeRestart}).
     *
     * @return false, and nothing asked, when no process runs or a restart of it was asked for already
     */
    boolean restartRunning(boolean failure, Runnable announce, Duration wait) throws InterruptedException {
        CompletableFuture<Void> ack;
        synchronized (lock) {
            ack = !state.running() || handle == null || restartSignal.isDone() ? null : restartAck;
        }
        if (ack == null) {
            return false;
        }
        announce.run();
        synchronized (lock) {
            restartSignal.complete(failure);
        }
        try {
            ack.get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException | TimeoutException e) {
            log.warn("restart did not finish in time: alloc={} task={}", allocId, task);
        }
        return true;
    }

    /** The exit of the process was handled: whoever asked for its restart may go on. */
    void acknowledgeRestart() {
        synchronized (lock) {
            restartAck.complete(null);
        }
    }

    /** The handle of the running process, or null when the task is not running. */
    TaskHandle runningHandle() {
        synchronized (lock) {
            return state.running() ? handle : null;
        }
    }

    /** The dead task starts waiting for an alloc-wide restart; the returned future is completed to run it again. */
    CompletableFuture<Void> openAllocRestart() {
        synchronized (lock) {
            allocRestart = new CompletableFuture<>();
            return allocRestart;
        }
    }

    void closeAllocRestart() {
        synchronized (lock) {
            allocRestart = null;
        }
    }

    /** The future that runs the waiting dead task again, or null when it does not wait (or was already asked to run). */
    CompletableFuture<Void> allocRestartWaiter() {
        synchronized (lock) {
            return allocRestart == null || allocRestart.isDone() || !state.dead() ? null : allocRestart;
        }
    }

    void persistLocal(boolean runComplete) {
        TaskLocalState local = new TaskLocalState(handle(), Map.copyOf(hookStates), counters.get(), runComplete);
        persist("local state", () -> store.putTaskLocalState(allocId, task, local));
    }

    private void persist(String what, Runnable write) {
        try {
            write.run();
        } catch (RuntimeException e) {
            log.error("the task's {} could not be stored (kept in memory; the next change stores it whole): alloc={} task={}",
                    what, allocId, task, e);
        }
    }
}
