package dev.berth.alloc.runner;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.alloc.fs.AllocDir;
import dev.berth.alloc.runner.AllocRunState.Phase;
import dev.berth.alloc.runner.AllocHooks.AllocHookContext;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.store.AllocRecord;
import dev.berth.alloc.task.ResizeDecision;
import dev.berth.alloc.task.ResumableLoop;
import dev.berth.alloc.task.ResumableLoop.Turn;
import dev.berth.alloc.task.TaskCoordinator;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskRunner;
import dev.berth.alloc.task.TaskState;

/**
 * Runs one allocation, as Nomad's alloc runner: prerun hooks, one {@link TaskRunner} per task, the sibling and leader rules
 * when a task dies, updates (latest wins: removed tasks are killed, added ones started), postrun. Its loop runs on virtual
 * threads ({@code berth-alloc-…}) through {@link ResumableLoop} and holds none while it waits for its inbox: every event
 * that matters is an {@link AllocMessage}. Kill, destroy, update and shutdown may come from any thread; destroy also works
 * for a runner whose run never started, and every wait is bounded. Collaborators: {@link AllocRecordKeeper},
 * {@link TaskRunnerSet}, {@link TaskStateRelay}, {@link TaskDeaths}, {@link AllocHookRunner}, {@link KillSequence}.
 */
public final class AllocRunner {

    private static final Logger log = LoggerFactory.getLogger(AllocRunner.class);

    private final AllocRunnerContext ctx;
    private final AllocDir dir;
    private final TaskCoordinator coordinator;
    private final AllocRecordKeeper record;
    private final AllocHookRunner hooks;
    private final TaskRunnerSet tasks = new TaskRunnerSet();
    private final TaskDeaths deaths;
    private final KillSequence kills = new KillSequence();
    private final RunnerInbox<AllocMessage> inbox = new RunnerInbox<>();
    private final ResumableLoop loop;
    private final TaskRunnerFactory runners;
    private final UpdateQueue updates = new UpdateQueue();
    private final CompletableFuture<Void> shutdownSignal = new CompletableFuture<>();
    private final CompletableFuture<Void> destroyed = new CompletableFuture<>();
    // where the run is and whether a destroy was asked for, under the runner's one lock (AllocRunState); every other field
    // is final and safe for any thread (copy-on-write sets, futures, the inbox, the update queue)
    private final AllocRunState run = new AllocRunState();

    public AllocRunner(AllocRunnerContext ctx, AllocRecord initial) {
        this(ctx, initial, false);
    }

    /** With {@code restoring}, task states and handles are loaded from the store and running tasks are re-attached. */
    public AllocRunner(AllocRunnerContext ctx, AllocRecord initial, boolean restoring) {
        this.ctx = ctx;
        this.record = new AllocRecordKeeper(ctx.store(), initial);
        AllocationSpec spec = initial.spec();
        this.dir = new AllocDir(ctx.allocsRoot(), spec.id());
        TaskGroupSpec group = spec.group().orElseThrow(() -> new IllegalArgumentException("task group not in job"));
        this.hooks = new AllocHookRunner(spec.id(), ctx.allocHooks(), ctx.listener(), this::hookContext);
        this.coordinator = new TaskCoordinator(group.tasks(), restoring);
        this.deaths = new TaskDeaths(tasks, ctx.clock(), this::killTasks);
        this.loop = new ResumableLoop("berth-alloc-" + shortId(), this::advance, this::crashed);
        this.runners = new TaskRunnerFactory(ctx, dir, record, tasks, coordinator, inbox::offer);
        runners.addAll(spec, group, restoring);
        if (restoring) {
            record.deriveRestored(tasks.states().values());
        }
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

    /** Completes when the run is over; never for a runner whose run never started. */
    public CompletableFuture<Void> runDone() {
        return loop.finished();
    }

    /** The newest accepted spec: a queued update, else the applied one. */
    public AllocationSpec latestSpec() {
        return updates.latest(record.get().spec());
    }

    /** Whether an applied or still queued update stops this alloc (a waiting prerun hook polls it). */
    public boolean stopRequested() {
        return record.get().spec().desiredTerminal() || updates.stopQueued();
    }

    /** Whether the agent is shutting this runner down (tasks keep running). */
    public boolean shuttingDown() {
        return shutdownSignal.isDone();
    }

    /** Starts the run loop on a virtual thread. Does nothing once destroy began. */
    public void start() {
        if (run.beginRun()) {
            loop.start();
        }
    }

    /**
     * The run: prerun hooks and the task runners' start once, then every message until every task runner is done or the
     * agent shuts down (waiting for the next one without a thread), then the postrun hooks.
     */
    private Turn advance() throws InterruptedException {
        if (run.phase() == Phase.PRERUN && !prerunThenStartTasks()) {
            return finish();
        }
        while (!shutdownSignal.isDone()) {
            deaths.releaseIfAllDead();
            if (tasks.all().stream().allMatch(tr -> tr.done().isDone())) {
                break;
            }
            AllocMessage message = inbox.poll();
            if (message == null) {
                return Turn.waitFor(inbox.arrival());
            }
            applyPendingUpdate();
            switch (message) {
                case AllocMessage.TaskDied(String task) -> deaths.taskDead(task);
                case AllocMessage.TaskRunOver o -> { }
                case AllocMessage.UpdateQueued u -> { }
                case AllocMessage.ShuttingDown s -> { }
            }
        }
        return finish();
    }

    /** The run is over: no task may start any more; the postrun hooks run unless the agent shuts down. */
    private Turn finish() {
        run.moveTo(Phase.CLOSED);
        if (!shutdownSignal.isDone()) {
            hooks.runAll(AllocHooks.AllocPostrunHook.class, "postrun", h -> h.postrun(hookContext()));
            ctx.listener().allocFinished(id());
        }
        return Turn.finish();
    }

    /**
     * Runs the prerun hooks, then starts the task runners, or fails them when a hook failed. False: the run is over at once
     * (the alloc was stopped before it ran).
     */
    private boolean prerunThenStartTasks() throws InterruptedException {
        if (record.get().spec().desiredTerminal()) {
            return false;
        }
        String failure = hooks.prerun();
        if (failure != null) {
            run.moveTo(Phase.CLOSED);
            tasks.active().forEach(tr -> tr.failBeforeStart(TaskEvent.setupFailure(ctx.clock().instant(), failure)));
        } else if (!shutdownSignal.isDone()) {
            // an agent shutdown during a long prerun (a previous-alloc wait) must not start the tasks
            applyPendingUpdate();
            run.locked(() -> {
                run.moveTo(Phase.TASKS_STARTED);
                tasks.active().forEach(TaskRunner::start);
                return null;
            });
        }
        return true;
    }

    /** The loop threw: tasks that never started fail with the reason instead of staying pending; the run is over. */
    private void crashed(RuntimeException e) {
        log.error("alloc runner failed: alloc={}", id(), e);
        run.moveTo(Phase.CLOSED);
        TaskEvent failed = TaskEvent.setupFailure(ctx.clock().instant(), "alloc runner failed: " + e);
        tasks.active().forEach(tr -> tr.failBeforeStart(failed));
    }

    /**
     * Kills the tasks in Nomad's order: prekill hooks, the leader synchronously, the other main and prestart/poststart tasks
     * concurrently, sidecars last. Poststop tasks are left to run. Serialized; every wait is bounded by the task's kill.
     */
    public void killTasks(String reason) throws InterruptedException {
        kills.kill(tasks::all, () -> hooks.runAll(AllocHooks.AllocPreKillHook.class, "prekill", h -> h.preKill(hookContext())),
                reason);
    }

    /** Queues an update; only the newest by AllocModifyIndex survives (latest wins). Non-blocking. */
    public void update(AllocationSpec spec) {
        updates.queue(spec);
        inbox.offer(new AllocMessage.UpdateQueued());
        if (runDone().isDone() || run.phase() == Phase.NEW) {
            // No run loop to pick it up: apply here (only persists and, for a stop, kills nothing that runs).
            try {
                applyPendingUpdate();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Applies the newest queued update, if it is newer than the applied spec: the spec is stored, the update hooks run,
     * the task runners are made to match the updated group ({@link TaskUpdates}: a task the update no longer lists is
     * killed, a task it adds gets a runner, a running task whose size changed is resized in place or restarted with it,
     * {@link TaskRunner#resize}), and a stop kills the tasks.
     */
    private void applyPendingUpdate() throws InterruptedException {
        record Applied(AllocationSpec previous, AllocationSpec next) {
        }
        Applied applied = run.locked(() -> {
            AllocationSpec previous = record.get().spec();
            AllocationSpec taken = updates.take();
            if (taken == null || taken.modifyIndex() <= previous.modifyIndex()) {
                return null;
            }
            record.setSpec(taken);
            if (!taken.desiredTerminal()) {
                hooks.runAll(AllocHooks.AllocUpdateHook.class, "update", h -> h.update(hookContext(), taken));
            }
            return new Applied(previous, taken);
        });
        if (applied == null) {
            return;
        }
        AllocationSpec next = applied.next();
        for (TaskRunner tr : run.locked(() -> removeTasks(next))) {
            log.info("killing a task the update removed: alloc={} task={}", id(), tr.name());
            tr.killRemoved();
        }
        Map<TaskRunner, ResizeDecision> sizes = run.locked(() -> {
            Map<TaskRunner, ResizeDecision> decided = new LinkedHashMap<>();
            if (record.get().spec() == next) { // else a newer update was applied meanwhile and did this
                addTasks(next);
                tasks.active().forEach(tr -> decided.put(tr, tr.update(next)));
            }
            return decided;
        });
        if (!applied.previous().desiredTerminal() && next.desiredTerminal()) {
            killTasks("alloc stopped");
        } else {
            // outside the lock: a task the new size cannot be written for restarts, and that waits for its old process
            for (var sized : sizes.entrySet()) {
                sized.getKey().resize(sized.getValue());
            }
        }
    }

    /**
     * Takes the runners of tasks the update no longer lists out of the active ones (lock held). Those that ran stay
     * visible and are returned, to be killed ({@link TaskRunner#killRemoved}); one that never started is forgotten.
     */
    private List<TaskRunner> removeTasks(AllocationSpec next) {
        List<TaskRunner> toKill = new ArrayList<>();
        for (TaskRunner tr : TaskUpdates.diff(tasks.active(), next.group().orElseThrow()).removed()) {
            boolean ran = run.tasksLaunched() && tr.started();
            tasks.removeForUpdate(tr.name(), ran);
            coordinator.remove(tr.name());
            if (ran) {
                toKill.add(tr);
            }
        }
        return toKill;
    }

    /**
     * Gives each task the update adds a runner (lock held), started at once when the tasks already run (through its
     * lifecycle gate), with the others otherwise; none once no task may start (the run ended, the group was killed, the alloc
     * stops, is destroyed or the agent shuts down).
     */
    private void addTasks(AllocationSpec next) {
        TaskGroupSpec newGroup = next.group().orElseThrow();
        for (TaskSpec added : TaskUpdates.diff(tasks.active(), newGroup).added()) {
            boolean closed = run.closedForNewTasks() || deaths.groupKilled() || next.desiredTerminal() || shutdownSignal.isDone();
            if (closed || !coordinator.add(added)) {
                log.warn("not starting a task the update added: the alloc is done or stopping: alloc={} task={}", id(), added.name());
                continue;
            }
            TaskRunner tr = runners.create(next, newGroup, added);
            tasks.add(tr);
            if (run.phase() == Phase.TASKS_STARTED) {
                tr.start();
            }
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
        AllocRunState.DestroyRequest request = run.requestDestroy();
        if (request.first()) {
            // Persisted before the caller hears of the destroy: an agent that stops (SIGTERM, kill -9) before the kill
            // finished finishes it at its next start, and never runs the allocation again.
            ctx.store().markDestroying(id());
            Thread.ofVirtual().name("berth-destroy-" + shortId()).start(() -> destroyNow(request.runStarted()));
        }
        return destroyed;
    }

    private void destroyNow(boolean runWasStarted) {
        try {
            killTasks("alloc destroyed");
            if (runWasStarted) {
                KillSequence.await(runDone(), ctx.maxKillTimeout().plus(Duration.ofSeconds(30)));
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
        inbox.offer(new AllocMessage.ShuttingDown());
        KillSequence.shutdown(tasks.all(), wait);
        if (run.phase() != Phase.NEW) {
            KillSequence.await(runDone(), wait);
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

    private AllocHookContext hookContext() {
        return new AllocHookContext(record.get().spec(), dir);
    }

    private String shortId() {
        String id = record.get().id();
        return id.length() > 8 ? id.substring(0, 8) : id;
    }
}
