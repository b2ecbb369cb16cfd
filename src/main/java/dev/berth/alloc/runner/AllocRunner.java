package dev.berth.alloc.runner;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.alloc.fs.AllocDir;
import dev.berth.alloc.runner.AllocHooks.AllocHookContext;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.store.AllocRecord;
import dev.berth.alloc.task.TaskCoordinator;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskLocalState;
import dev.berth.alloc.task.TaskRunner;
import dev.berth.alloc.task.TaskRunnerContext;
import dev.berth.alloc.task.TaskState;

/**
 * Runs one allocation on virtual threads ({@code berth-alloc-…}; none while it waits for its inbox): prerun hooks, one
 * {@link TaskRunner} per task, sibling/leader kills, updates (latest wins: removed tasks are killed, added ones started),
 * postrun. Kill, destroy and shutdown may come from any thread; destroy also works for a runner whose run never started,
 * and every wait is bounded. Collaborators: {@link AllocRecordKeeper}, {@link TaskRunnerSet}, {@link TaskStateRelay},
 * {@link TaskDeaths} (sibling and leader logic), {@link AllocHookRunner} (hook phases), {@link KillSequence}.
 */
public final class AllocRunner {

    private static final Logger log = LoggerFactory.getLogger(AllocRunner.class);
    private static final Object WAKE = new Object();

    private final AllocRunnerContext ctx;
    private final AllocDir dir;
    private final TaskGroupSpec group;
    private final TaskCoordinator coordinator;
    private final AllocRecordKeeper record;
    private final AllocHookRunner hooks;
    private final TaskRunnerSet tasks = new TaskRunnerSet();
    private final TaskDeaths deaths;
    private final RunnerInbox inbox = new RunnerInbox();
    private final AtomicReference<AllocationSpec> pendingUpdate = new AtomicReference<>();
    private final CompletableFuture<Void> runDone = new CompletableFuture<>();
    private final CompletableFuture<Void> destroyed = new CompletableFuture<>();
    private final CompletableFuture<Void> shutdownSignal = new CompletableFuture<>();
    private final ReentrantLock killLock = new ReentrantLock();
    private final Object lifecycleLock = new Object();
    private final Object updateLock = new Object();
    // written under lifecycleLock
    private boolean runStarted;
    private volatile boolean destroying;
    // guarded by updateLock: BEFORE_LAUNCH until the tasks start, LAUNCHED while they run, CLOSED when no task may start
    private Launch launch = Launch.BEFORE_LAUNCH;
    private enum Launch { BEFORE_LAUNCH, LAUNCHED, CLOSED }

    public AllocRunner(AllocRunnerContext ctx, AllocRecord initial) {
        this(ctx, initial, false);
    }

    /** With {@code restoring}, task states and handles are loaded from the store and running tasks are re-attached. */
    public AllocRunner(AllocRunnerContext ctx, AllocRecord initial, boolean restoring) {
        this.ctx = ctx;
        this.record = new AllocRecordKeeper(ctx.store(), initial);
        AllocationSpec spec = initial.spec();
        this.dir = new AllocDir(ctx.allocsRoot(), spec.id());
        this.group = spec.group().orElseThrow(() -> new IllegalArgumentException("task group not in job"));
        this.hooks = new AllocHookRunner(spec.id(), ctx.allocHooks(), ctx.listener(), this::hookContext);
        this.coordinator = new TaskCoordinator(group.tasks(), restoring);
        this.deaths = new TaskDeaths(tasks, ctx.clock(), this::killTasks);
        var storedStates = restoring ? ctx.store().taskStates(spec.id()) : Map.<String, TaskState>of();
        for (TaskSpec task : group.tasks()) {
            tasks.add(newTaskRunner(spec, group, task, restoring, storedStates));
        }
        storedStates.forEach((name, state) -> {
            if (group.tasks().stream().noneMatch(t -> t.name().equals(name))) {
                tasks.addRemovedBeforeRestart(name, TaskUpdates.finalStateOfRemoved(ctx, spec.id(), name, state));
            }
        });
        if (restoring) {
            record.deriveRestored(tasks.states().values());
        }
    }

    private TaskRunner newTaskRunner(AllocationSpec spec, TaskGroupSpec group, TaskSpec task, boolean restoring,
                                     Map<String, TaskState> storedStates) {
        TaskLocalState local = restoring ? ctx.store().taskLocalState(spec.id(), task.name()).orElse(null) : null;
        TaskState restoredState = restoring ? storedStates.getOrDefault(task.name(), TaskState.initial()) : null;
        var restored = local == null ? null : local.restarts();
        var listener = new TaskStateRelay(spec.id(), record, tasks, ctx.listener(), inbox::offer);
        var trCtx = new TaskRunnerContext(spec, group, task, dir, ctx.drivers().apply(task.driver()), ctx.taskHooks(), ctx.store(),
                ctx.trackers().create(spec, task, restored), coordinator, ctx.clock(), ctx.sleeper(), ctx.maxKillTimeout(),
                ctx.envBuilder(), listener, restoredState, local);
        TaskRunner tr = new TaskRunner(trCtx);
        // The run loop waits on its inbox: every event that matters wakes it (no thread parked, no polling).
        tr.done().whenComplete((v, e) -> inbox.offer(WAKE));
        return tr;
    }

    public String id() {
        return record.get().id();
    }

    public AllocRecord record() {
        return record.get();
    }

    public AllocDir dir() {
        return dir;
    }

    /** Task states by name, in the group's order. */
    public Map<String, TaskState> taskStates() {
        return tasks.states();
    }

    public CompletableFuture<Void> runDone() {
        return runDone;
    }

    /** The newest accepted spec: a queued update, else the applied one. */
    public AllocationSpec latestSpec() {
        AllocationSpec queued = pendingUpdate.get();
        AllocationSpec applied = record.get().spec();
        return queued != null && queued.modifyIndex() > applied.modifyIndex() ? queued : applied;
    }

    /** Whether an applied or still queued update stops this alloc (a waiting prerun hook polls it). */
    public boolean stopRequested() {
        AllocationSpec queued = pendingUpdate.get();
        return record.get().spec().desiredTerminal() || (queued != null && queued.desiredTerminal());
    }

    /** Whether the agent is shutting this runner down (tasks keep running). */
    public boolean shuttingDown() {
        return shutdownSignal.isDone();
    }

    /** Starts the run loop on a virtual thread. Does nothing once destroy began. */
    public void start() {
        synchronized (lifecycleLock) {
            if (runStarted || destroying) {
                return;
            }
            runStarted = true;
        }
        continueOnNewThread(this::run);
    }

    private void continueOnNewThread(RunnerInbox.Segment segment) {
        Thread.ofVirtual().name("berth-alloc-" + shortId()).start(() -> runSegment(segment));
    }

    private boolean run() throws InterruptedException {
        if (record.get().spec().desiredTerminal()) {
            return true;
        }
        String failure = hooks.prerun();
        if (failure != null) {
            closeLaunch();
            tasks.active().forEach(tr -> tr.failBeforeStart(TaskEvent.setupFailure(ctx.clock().instant(), failure)));
        } else if (!shutdownSignal.isDone()) {
            // an agent shutdown during a long prerun (a previous-alloc wait) must not start the tasks
            applyPendingUpdate();
            synchronized (updateLock) {
                launch = Launch.LAUNCHED;
                tasks.active().forEach(TaskRunner::start);
            }
        }
        return loopUntilTasksDone();
    }

    private void runSegment(RunnerInbox.Segment segment) {
        boolean over = true;
        try {
            over = segment.run();
            if (over && !shutdownSignal.isDone()) {
                hooks.runAll(AllocHooks.AllocPostrunHook.class, "postrun", h -> h.postrun(hookContext()));
                ctx.listener().allocFinished(id());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.error("alloc runner failed: alloc={}", id(), e);
            // tasks that never started fail with the reason instead of staying pending
            closeLaunch();
            TaskEvent failed = TaskEvent.setupFailure(ctx.clock().instant(), "alloc runner failed: " + e);
            tasks.active().forEach(tr -> tr.failBeforeStart(failed));
        } finally {
            if (over) {
                runDone.complete(null);
            }
        }
    }

    /** Until every task runner is done or the agent shuts down; false when it waits for the next message. */
    private boolean loopUntilTasksDone() throws InterruptedException {
        while (!shutdownSignal.isDone()) {
            deaths.releaseIfAllDead();
            if (tasks.all().stream().allMatch(tr -> tr.done().isDone())) {
                break;
            }
            // task deaths, runner exits, updates and shutdown all post to the inbox
            Object msg = inbox.pollOrWait(() -> continueOnNewThread(this::loopUntilTasksDone));
            if (msg == null) {
                return false;
            }
            applyPendingUpdate();
            if (msg instanceof String deadTask) {
                deaths.taskDead(deadTask);
            }
        }
        closeLaunch();
        return true;
    }

    /**
     * Kills the tasks in Nomad's order: prekill hooks, the leader synchronously, the other main and prestart/poststart tasks
     * concurrently, sidecars last. Poststop tasks are left to run. Serialized; every wait is bounded by the task's kill.
     */
    public void killTasks(String reason) throws InterruptedException {
        killLock.lockInterruptibly();
        try {
            hooks.runAll(AllocHooks.AllocPreKillHook.class, "prekill", h -> h.preKill(hookContext()));
            KillSequence.kill(tasks.all(), reason);
        } finally {
            killLock.unlock();
        }
    }

    /** Queues an update; only the newest by AllocModifyIndex survives (latest wins). Non-blocking. */
    public void update(AllocationSpec spec) {
        pendingUpdate.accumulateAndGet(spec, (cur, next) -> cur == null || next.modifyIndex() > cur.modifyIndex() ? next : cur);
        inbox.offer(WAKE);
        if (runDone.isDone() || !isRunStarted()) {
            // No run loop to pick it up: apply here (only persists and, for a stop, kills nothing that runs).
            try {
                applyPendingUpdate();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void applyPendingUpdate() throws InterruptedException {
        boolean stopping;
        synchronized (updateLock) {
            AllocationSpec next = pendingUpdate.getAndSet(null);
            AllocationSpec current = record.get().spec();
            if (next == null || next.modifyIndex() <= current.modifyIndex()) {
                return;
            }
            stopping = !current.desiredTerminal() && next.desiredTerminal();
            record.setSpec(next);
            if (!next.desiredTerminal()) {
                hooks.runAll(AllocHooks.AllocUpdateHook.class, "update", h -> h.update(hookContext(), next));
            }
            convergeTasks(next);
            tasks.active().forEach(tr -> tr.update(next));
        }
        if (stopping) {
            killTasks("alloc stopped");
        }
    }

    /**
     * Makes the task runners match the updated group (caller holds updateLock): a task the update no longer lists is killed
     * ({@link TaskRunner#killRemoved}; forgotten if it never started); a task it adds gets a new runner, started at once when
     * the tasks already run (through its lifecycle gate), with the others otherwise; none is added once no task may start.
     */
    private void convergeTasks(AllocationSpec next) throws InterruptedException {
        TaskGroupSpec newGroup = next.group().orElseThrow();
        TaskUpdates.Diff diff = TaskUpdates.diff(tasks.active(), newGroup);
        for (TaskRunner tr : diff.removed()) {
            boolean ran = launch != Launch.BEFORE_LAUNCH && tr.started();
            tasks.remove(tr.name(), ran);
            coordinator.remove(tr.name());
            if (ran) {
                log.info("killing a task the update removed: alloc={} task={}", id(), tr.name());
                tr.killRemoved();
            }
        }
        for (TaskSpec added : diff.added()) {
            killLock.lockInterruptibly();
            try {
                boolean closed = launch == Launch.CLOSED || deaths.groupKilled() || next.desiredTerminal() || shutdownSignal.isDone()
                        || destroying;
                if (closed || !coordinator.add(added)) {
                    log.warn("not starting a task the update added: the alloc is done or stopping: alloc={} task={}", id(), added.name());
                    continue;
                }
                TaskRunner tr = newTaskRunner(next, newGroup, added, false, Map.of());
                tasks.add(tr);
                if (launch == Launch.LAUNCHED) {
                    tr.start();
                }
            } finally {
                killLock.unlock();
            }
        }
    }

    private void closeLaunch() {
        synchronized (updateLock) {
            launch = Launch.CLOSED;
        }
    }

    /**
     * Nomad's {@code RestartAll}: the lifecycle coordinator goes back to {@code init}, then every task is force-restarted
     * concurrently ({@link TaskRunner#forceRestart}): running ones are restarted, dead ones whose run is not over run again,
     * prestart tasks first, then the main tasks. Blocks until the old processes exited.
     */
    public void restartAll(String reason) throws InterruptedException {
        coordinator.restart();
        tasks.forceRestartActive(reason, coordinator::taskNotRestarting);
    }

    /**
     * Destroys the alloc (idempotent, asynchronous, best effort): kill the tasks, wait for the run loop (only if it ever
     * started), run every destroy hook, delete the state. The returned future completes when done.
     */
    public CompletableFuture<Void> destroy() {
        boolean first;
        boolean started;
        synchronized (lifecycleLock) {
            first = !destroying;
            destroying = true;
            started = runStarted;
        }
        if (first) {
            // Persisted before the caller hears of the destroy: an agent that stops (SIGTERM, kill -9) before the kill
            // finished finishes it at its next start, and never runs the allocation again.
            ctx.store().markDestroying(id());
            Thread.ofVirtual().name("berth-destroy-" + shortId()).start(() -> destroyImpl(started));
        }
        return destroyed;
    }

    private void destroyImpl(boolean runWasStarted) {
        try {
            killTasks("alloc destroyed");
            if (runWasStarted) {
                KillSequence.await(runDone, ctx.maxKillTimeout().plus(Duration.ofSeconds(30)));
            }
            hooks.runAll(AllocHooks.AllocDestroyHook.class, "destroy", h -> h.destroy(hookContext()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.warn("destroy hooks failed: alloc={}", id(), e);
        } finally {
            ctx.store().deleteAlloc(id());
            ctx.listener().allocDestroyed(id());
            destroyed.complete(null);
        }
    }

    /** Agent shutdown: ends the runner threads, leaves the tasks running. Bounded by {@code wait}. */
    public void shutdown(Duration wait) throws InterruptedException {
        shutdownSignal.complete(null);
        inbox.offer(WAKE);
        KillSequence.shutdown(tasks.all(), wait);
        if (isRunStarted()) {
            KillSequence.await(runDone, wait);
        }
        hooks.runAll(AllocHooks.AllocShutdownHook.class, "shutdown", h -> h.shutdown(hookContext()));
    }

    /** The active runner of a task, or null (unknown, or removed by an update). */
    public TaskRunner task(String name) {
        return tasks.get(name);
    }

    /** The active task runners, in the group's order. */
    public Collection<TaskRunner> taskRunners() {
        return tasks.active();
    }

    private boolean isRunStarted() {
        synchronized (lifecycleLock) {
            return runStarted;
        }
    }

    private AllocHookContext hookContext() {
        return new AllocHookContext(record.get().spec(), dir);
    }

    private String shortId() {
        String id = record.get().id();
        return id.length() > 8 ? id.substring(0, 8) : id;
    }
}
