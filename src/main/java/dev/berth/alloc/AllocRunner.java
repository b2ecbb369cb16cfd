package dev.berth.alloc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.alloc.AllocHooks.AllocHook;
import dev.berth.alloc.AllocHooks.AllocHookContext;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.task.TaskCoordinator;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskRunner;
import dev.berth.alloc.task.TaskRunnerContext;
import dev.berth.alloc.task.TaskState;

/**
 * Runs one allocation on its own virtual thread ({@code berth-alloc-…}): prerun hooks, one {@link TaskRunner} per task,
 * sibling/leader kills, updates (latest wins), postrun. Kill ({@link #killTasks}), destroy and shutdown may come from any
 * thread. Destroy works also for a runner whose run never started, and never deadlocks: every wait is bounded.
 */
public final class AllocRunner {

    private static final Logger log = LoggerFactory.getLogger(AllocRunner.class);
    private static final Object WAKE = new Object();

    private final AllocRunnerContext ctx;
    private final AllocDir dir;
    private final TaskGroupSpec group;
    private final Map<String, TaskRunner> tasks = new LinkedHashMap<>();
    private final LinkedBlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    private final AtomicReference<AllocationSpec> pendingUpdate = new AtomicReference<>();
    private final CompletableFuture<Void> runDone = new CompletableFuture<>();
    private final CompletableFuture<Void> destroyed = new CompletableFuture<>();
    private final CompletableFuture<Void> shutdownSignal = new CompletableFuture<>();
    private final ReentrantLock killLock = new ReentrantLock();
    private final Object lifecycleLock = new Object();
    private final Object statusLock = new Object();
    private final Object updateLock = new Object();
    // guarded by lifecycleLock
    private boolean runStarted;
    private boolean destroying;
    // guarded by statusLock (written), volatile for readers
    private volatile AllocRecord record;
    // set on the alloc thread once a sibling/leader kill was started
    private volatile boolean groupKilled;

    public AllocRunner(AllocRunnerContext ctx, AllocRecord initial) {
        this(ctx, initial, false);
    }

    /** With {@code restoring}, task states and handles are loaded from the store and running tasks are re-attached. */
    public AllocRunner(AllocRunnerContext ctx, AllocRecord initial, boolean restoring) {
        this.ctx = ctx;
        this.record = initial;
        AllocationSpec spec = initial.spec();
        this.dir = new AllocDir(ctx.allocsRoot(), spec.id());
        this.group = spec.group().orElseThrow(() -> new IllegalArgumentException("task group not in job"));
        TaskCoordinator coordinator = new TaskCoordinator(group.tasks());
        var storedStates = restoring ? ctx.store().taskStates(spec.id()) : java.util.Map.<String, TaskState>of();
        for (TaskSpec task : group.tasks()) {
            TaskLocalState local = restoring ? ctx.store().taskLocalState(spec.id(), task.name()).orElse(null) : null;
            TaskState restoredState = restoring ? storedStates.getOrDefault(task.name(), TaskState.initial()) : null;
            var restored = local == null ? null : local.restarts();
            var trCtx = new TaskRunnerContext(spec, group, task, dir, ctx.drivers().apply(task.driver()), ctx.taskHooks(), ctx.store(),
                    ctx.trackers().create(spec, task, restored), coordinator, ctx.clock(), ctx.sleeper(), ctx.maxKillTimeout(),
                    ctx.envBuilder(), new TaskEvents(task.name()), restoredState, local);
            TaskRunner tr = new TaskRunner(trCtx);
            // The run loop sleeps on its inbox: every event that matters wakes it (no busy polling with 2,000 allocs).
            tr.done().whenComplete((v, e) -> inbox.offer(WAKE));
            tasks.put(task.name(), tr);
        }
    }

    public String id() {
        return record.id();
    }

    public AllocRecord record() {
        return record;
    }

    public AllocDir dir() {
        return dir;
    }

    /** Task states by name, in the group's order. */
    public Map<String, TaskState> taskStates() {
        Map<String, TaskState> m = new LinkedHashMap<>();
        tasks.forEach((name, tr) -> m.put(name, tr.state()));
        return m;
    }

    public CompletableFuture<Void> runDone() {
        return runDone;
    }

    /** Whether an applied or still queued update stops this alloc (a waiting prerun hook polls it). */
    public boolean stopRequested() {
        AllocationSpec queued = pendingUpdate.get();
        return record.spec().desiredTerminal() || (queued != null && queued.desiredTerminal());
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
        Thread.ofVirtual().name("berth-alloc-" + shortId()).start(this::run);
    }

    private void run() {
        try {
            if (!record.spec().desiredTerminal()) {
                // an agent shutdown during a long prerun (a previous-alloc wait) must not start the tasks
                if (prerun() && !shutdownSignal.isDone()) {
                    tasks.values().forEach(TaskRunner::start);
                }
                loopUntilTasksDone();
            }
            if (!shutdownSignal.isDone()) {
                runAll(AllocHooks.AllocPostrunHook.class, "postrun", h -> h.postrun(hookContext()));
                ctx.listener().allocFinished(id());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.error("alloc runner failed: alloc={}", id(), e);
        } finally {
            runDone.complete(null);
        }
    }

    private boolean prerun() {
        for (AllocHook hook : ctx.allocHooks()) {
            if (hook instanceof AllocHooks.AllocPrerunHook prerun) {
                long t0 = System.nanoTime();
                try {
                    prerun.prerun(hookContext());
                } catch (Exception e) {
                    String msg = "failed to setup alloc: pre-run hook \"" + hook.name() + "\" failed: " + e.getMessage();
                    log.warn("alloc prerun failed: alloc={}", id(), e);
                    tasks.values().forEach(tr -> tr.failBeforeStart(TaskEvent.setupFailure(ctx.clock().instant(), msg)));
                    return false;
                } finally {
                    ctx.listener().hookTimed(hook.name(), "prerun", System.nanoTime() - t0);
                }
            }
        }
        return true;
    }

    private void loopUntilTasksDone() throws InterruptedException {
        while (!shutdownSignal.isDone()) {
            if (tasks.values().stream().allMatch(tr -> tr.done().isDone())) {
                return;
            }
            // The timeout is only a safety net: task deaths, runner exits, updates and shutdown all post to the inbox.
            Object msg = inbox.poll(30, TimeUnit.SECONDS);
            applyPendingUpdate();
            if (msg instanceof String deadTask) {
                handleTaskDead(deadTask);
            }
        }
    }

    /** Sibling failed, leader dead, only sidecars left (§5.4): tell the live tasks and kill them. */
    private void handleTaskDead(String name) throws InterruptedException {
        TaskRunner dead = tasks.get(name);
        if (dead == null || dead.task().isPoststop() || groupKilled) {
            return;
        }
        var now = ctx.clock().instant();
        TaskEvent event;
        if (dead.state().failed()) {
            event = TaskEvent.siblingFailed(now, name);
        } else if (dead.task().isLeader()) {
            event = TaskEvent.leaderDead(now);
        } else if (liveTasks().stream().noneMatch(tr -> tr.task().isMain()) && liveTasks().stream().anyMatch(tr -> tr.task().sidecar())) {
            event = TaskEvent.mainDead(now);
        } else {
            return;
        }
        List<TaskRunner> live = liveTasks();
        if (live.isEmpty()) {
            return;
        }
        groupKilled = true;
        live.forEach(tr -> tr.emit(event));
        killTasks(event.type());
    }

    private List<TaskRunner> liveTasks() {
        return tasks.values().stream().filter(tr -> !tr.task().isPoststop() && !tr.done().isDone() && !tr.state().dead()).toList();
    }

    /**
     * Kills the tasks in Nomad's order: prekill hooks, the leader synchronously, the other main and prestart/poststart tasks
     * concurrently, sidecars last. Poststop tasks are left to run. Serialized; every wait is bounded by the task's kill.
     */
    public void killTasks(String reason) throws InterruptedException {
        killLock.lockInterruptibly();
        try {
            runAll(AllocHooks.AllocPreKillHook.class, "prekill", h -> h.preKill(hookContext()));
            for (TaskRunner tr : tasks.values()) {
                if (tr.task().isLeader() && !tr.task().isPoststop()) {
                    tr.kill(reason);
                }
            }
            killConcurrently(tasks.values().stream().filter(tr -> !tr.task().isLeader() && !tr.task().sidecar() && !tr.task().isPoststop()).toList(), reason);
            killConcurrently(tasks.values().stream().filter(tr -> !tr.task().isLeader() && tr.task().sidecar() && !tr.task().isPoststop()).toList(), reason);
        } finally {
            killLock.unlock();
        }
    }

    private static void killConcurrently(Collection<TaskRunner> runners, String reason) {
        if (runners.isEmpty()) {
            return;
        }
        try (var exec = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("berth-kill-", 0).factory())) {
            for (TaskRunner tr : runners) {
                exec.submit(() -> {
                    tr.kill(reason);
                    return null;
                });
            }
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
        AllocationSpec next;
        synchronized (updateLock) {
            next = pendingUpdate.getAndSet(null);
            AllocationSpec current = record.spec();
            if (next == null || next.modifyIndex() <= current.modifyIndex()) {
                return;
            }
            stopping = !current.desiredTerminal() && next.desiredTerminal();
            synchronized (statusLock) {
                record = record.withSpec(next);
                ctx.store().putAlloc(record);
            }
            if (!next.desiredTerminal()) {
                AllocationSpec upd = next;
                runAll(AllocHooks.AllocUpdateHook.class, "update", h -> h.update(hookContext(), upd));
            }
            tasks.values().forEach(tr -> tr.update(upd(next)));
        }
        if (stopping) {
            killTasks("alloc stopped");
        }
    }

    private static AllocationSpec upd(AllocationSpec s) {
        return s;
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
            Thread.ofVirtual().name("berth-destroy-" + shortId()).start(() -> destroyImpl(started));
        }
        return destroyed;
    }

    private void destroyImpl(boolean runWasStarted) {
        try {
            killTasks("alloc destroyed");
            if (runWasStarted) {
                await(runDone, ctx.maxKillTimeout().plus(Duration.ofSeconds(30)));
            }
            runAll(AllocHooks.AllocDestroyHook.class, "destroy", h -> h.destroy(hookContext()));
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
        try (var exec = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("berth-shutdown-", 0).factory())) {
            for (TaskRunner tr : tasks.values()) {
                exec.submit(() -> {
                    tr.shutdown(wait);
                    return null;
                });
            }
        }
        if (isRunStarted()) {
            await(runDone, wait);
        }
        runAll(AllocHooks.AllocShutdownHook.class, "shutdown", h -> h.shutdown(hookContext()));
    }

    public TaskRunner task(String name) {
        return tasks.get(name);
    }

    public Collection<TaskRunner> taskRunners() {
        return tasks.values();
    }

    private boolean isRunStarted() {
        synchronized (lifecycleLock) {
            return runStarted;
        }
    }

    private AllocHookContext hookContext() {
        return new AllocHookContext(record.spec(), dir);
    }

    private interface HookCall<H> {
        void call(H hook) throws Exception;
    }

    /** Runs every hook of a phase, collecting failures (addSuppressed) and logging them together. */
    private <H extends AllocHook> void runAll(Class<H> type, String phase, HookCall<H> call) {
        RuntimeException failures = null;
        for (AllocHook hook : ctx.allocHooks()) {
            if (!type.isInstance(hook)) {
                continue;
            }
            long t0 = System.nanoTime();
            try {
                call.call(type.cast(hook));
            } catch (Exception e) {
                if (failures == null) {
                    failures = new IllegalStateException(phase + " hooks failed for alloc " + id());
                }
                failures.addSuppressed(e);
            } finally {
                ctx.listener().hookTimed(hook.name(), phase, System.nanoTime() - t0);
            }
        }
        if (failures != null) {
            log.warn("{} hooks failed: alloc={}", phase, id(), failures);
        }
    }

    private static void await(CompletableFuture<?> f, Duration wait) throws InterruptedException {
        try {
            f.get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException | TimeoutException e) {
            log.warn("gave up waiting after {}", wait);
        }
    }

    private String shortId() {
        String id = record.id();
        return id.length() > 8 ? id.substring(0, 8) : id;
    }

    /** Derives and persists the client status on every task change; queues dead tasks for the sibling logic. */
    private final class TaskEvents implements TaskRunnerContext.TaskListener {
        private final String task;
        private volatile TaskState last = TaskState.initial();

        TaskEvents(String task) {
            this.task = task;
        }

        @Override
        public void taskStateChanged(String name, TaskState state) {
            TaskState old = last;
            last = state;
            String oldStatus;
            String newStatus;
            synchronized (statusLock) {
                List<TaskState> states = new ArrayList<>();
                tasks.values().forEach(tr -> states.add(tr.name().equals(name) ? state : tr.state()));
                String[] derived = ClientStatus.derive(states);
                oldStatus = record.clientStatus();
                newStatus = derived[0];
                if (!derived[0].equals(record.clientStatus()) || !derived[1].equals(record.clientDescription())) {
                    record = record.withStatus(derived[0], derived[1]);
                    ctx.store().putAlloc(record);
                }
            }
            ctx.listener().taskStateChanged(id(), name, old, state);
            if (!oldStatus.equals(newStatus)) {
                ctx.listener().clientStatusChanged(id(), oldStatus, newStatus);
            }
            if (state.dead() && !old.dead()) {
                inbox.offer(name);
            }
        }

        @Override
        public void taskStarted(String name) {
            ctx.listener().taskStarted(id(), name);
        }

        @Override
        public void taskRestarting(String name) {
            ctx.listener().taskRestarting(id(), name);
        }

        @Override
        public void taskOomKilled(String name) {
            ctx.listener().taskOomKilled(id(), name);
        }

        @Override
        public void hookTimed(String hook, String phase, long nanos) {
            ctx.listener().hookTimed(hook, phase, nanos);
        }
    }
}
