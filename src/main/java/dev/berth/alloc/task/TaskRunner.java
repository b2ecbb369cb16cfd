package dev.berth.alloc.task;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.task.ResumableLoop.Turn;
import dev.berth.alloc.task.TaskHooks.HookFailedException;
import dev.berth.driver.DriverException;
import dev.berth.driver.ExecSession;
import dev.berth.driver.ExitResult;
import dev.berth.driver.TaskDevice;
import dev.berth.driver.TaskHandle;

/**
 * Runs one task, as Nomad's task runner: one state machine, {@link #advance()}, moves it through its {@link Phase}s until
 * the run is over. A kill stops the task for good; an agent shutdown only ends the run and leaves the task running, for a
 * later restore. The run holds no thread while the process runs or while the dead task waits for an alloc-wide restart: it
 * goes on on a new virtual thread once something happened ({@link ResumableLoop}). Every other wait is bounded by a kill
 * or the shutdown (a kill's by its timeout), so a driver whose future never completes cannot hang the runner.
 *
 * <p>The lifecycle calls ({@link #kill}, {@link #restart}, {@link #signal}…) may come from any thread; they act through the
 * kill and shutdown signals and {@link TaskStateRecorder}, which holds the state other threads read.
 */
public final class TaskRunner {

    private static final Logger log = LoggerFactory.getLogger(TaskRunner.class);

    /** Where the run is. Nomad's {@code Run()} labels: {@code MAIN} is prestart/running, {@code ALLOC_RESTART} dead. */
    enum Phase {
        /** after an agent restart: re-attach the process, or go on where the run stopped ({@link TaskRestore}) */
        RESTORING,
        /** wait for the lifecycle gate, run the prestart hooks, start the process, run the poststart hooks */
        PRESTART,
        /** the process runs: wait, with no thread, for its exit, a kill, a restart request or the shutdown */
        RUNNING,
        /** the wait ended: stop the process when it was asked to stop, record the exit */
        EXITED,
        /** the restart policy decides: start again after its delay, or the task is dead */
        RESTARTING,
        /** dead: wait, with no thread, while the alloc lives, for an alloc-wide restart */
        DEAD,
        /** an alloc-wide restart, a kill or the shutdown ended the dead task's wait */
        DEAD_WOKEN,
        /** the run is over: stop hooks, unless the agent shuts down and the task keeps running */
        OVER
    }

    /** Why a task that an alloc update no longer lists is killed (Nomad's {@code KillReason}). */
    public static final String REMOVED_REASON = "update missing task";

    private final TaskRunnerContext ctx;
    private final TaskHookExecutor hooks;
    private final TaskStateRecorder rec;
    private final ExitStep exits;
    private final RestartStep restarts;
    private final TaskResize resizer;
    private final ResumableLoop loop;
    private final CompletableFuture<Void> killSignal = new CompletableFuture<>();
    private final CompletableFuture<Void> shutdownSignal = new CompletableFuture<>();
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile TaskHookContext hookContext;
    // the reason the final Killed event carries (an update removed the task), else null
    private volatile String killedReason;

    // Confined to the run (one step at a time, ordered by the loop): the phase and what the running process left for EXITED.
    private Phase phase;
    private ExitStep.Started process;

    public TaskRunner(TaskRunnerContext ctx) {
        this.ctx = ctx;
        this.hooks = new TaskHookExecutor(ctx.hooks(), ctx.listener(), ctx.clock(), ctx.alloc().id(), ctx.task().name());
        this.rec = new TaskStateRecorder(ctx.alloc().id(), ctx.task().name(), ctx.store(), this::stateChanged,
                ctx.tracker()::counters, ctx.restoredState(), ctx.restoredLocal());
        this.exits = new ExitStep(new TaskStopper(ctx.driver(), ctx.killTimeout(), ctx.task().killSignal(), ctx.sleeper()), hooks,
                rec, ctx.tracker(), ctx.clock());
        this.restarts = new RestartStep(ctx.tracker(), rec, ctx.sleeper(), ctx.clock());
        this.resizer = new TaskResize(ctx, event -> rec.restartRunning(false, () -> emit(event), killWait()));
        this.hookContext = new TaskHookContext(ctx.alloc(), ctx.group(), ctx.task(), ctx.allocDir().path(),
                ctx.allocDir().taskDir(ctx.task().name()), ctx.driver(), this::emit);
        this.phase = ctx.restoredState() != null ? Phase.RESTORING : Phase.PRESTART;
        String id = ctx.alloc().id();
        this.loop = new ResumableLoop("berth-task-" + (id.length() > 8 ? id.substring(0, 8) : id) + "-" + name(), this::advance,
                this::crashed);
        loop.finished().whenComplete((v, e) -> done.complete(null));
        ctx.coordinator().taskStateChanged(name(), rec.state());
        killSignal.whenComplete((v, e) -> ctx.coordinator().wake());
        shutdownSignal.whenComplete((v, e) -> ctx.coordinator().wake());
    }

    /** Emits {@code Received} and starts the run on a virtual thread. Called once. */
    public void start() {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        // a restored task that has no event yet was persisted before its Received (crash right after the submission)
        if (ctx.restoredState() == null || ctx.restoredState().events().isEmpty()) {
            emit(TaskEvent.received(ctx.clock().instant()));
        }
        if (killSignal.isDone()) {
            markKilledBeforeStart();
            done.complete(null);
            return;
        }
        loop.start();
    }

    /** The run, phase by phase, until it is over or waits for something (then it goes on where it stopped). */
    private Turn advance() throws InterruptedException {
        while (true) {
            switch (phase) {
                case RESTORING -> phase = restore();
                case PRESTART -> phase = prestart();
                case RUNNING -> {
                    phase = Phase.EXITED;
                    return Turn.waitFor(process.waitEnds(killSignal, shutdownSignal));
                }
                case EXITED -> phase = exited();
                case RESTARTING -> phase = restarting();
                case DEAD -> {
                    if (ctx.task().isPoststop() || !rec.state().dead() || killSignal.isDone() || shutdownSignal.isDone()) {
                        phase = Phase.OVER;
                        continue;
                    }
                    phase = Phase.DEAD_WOKEN;
                    return Turn.waitFor(CompletableFuture.anyOf(rec.openAllocRestart(), killSignal, shutdownSignal));
                }
                case DEAD_WOKEN -> phase = deadWoken();
                case OVER -> {
                    if (!shutdownSignal.isDone() || killSignal.isDone()) {
                        hooks.stop(hookContext);
                        rec.persistLocal(true);
                    }
                    return Turn.finish();
                }
            }
        }
    }

    /** {@link Phase#RESTORING}: where the restored run goes on. */
    private Phase restore() throws InterruptedException {
        TaskRestore.Resumed resumed = new TaskRestore(ctx.driver(), rec, ctx.clock()).resume(ctx.restoredLocal(), ctx.tracker());
        if (resumed.recovered() != null) {
            // As Nomad after a restore: poststart hooks see the re-attached task (the stats hook resumes sampling).
            hooks.poststart(hookContext, resumed.recovered());
            waitFor(ctx.driver().waitTask(resumed.recovered()));
        }
        return resumed.next();
    }

    /** {@link Phase#PRESTART}: through the gate to a running process, or to the restart policy when the start failed. */
    private Phase prestart() throws InterruptedException {
        // every start passes the lifecycle gate (it is open for restarts unless an alloc-wide restart is under way)
        if (killSignal.isDone() || !ctx.coordinator().awaitStart(name(), List.of(killSignal, shutdownSignal))) {
            if (killSignal.isDone()) {
                markKilledBeforeStart();
            }
            return Phase.DEAD;
        }
        try {
            waitFor(startProcess());
            return Phase.RUNNING;
        } catch (HookFailedException e) {
            emit(e.event());
            ctx.tracker().setStartError(e, e.recoverable());
        } catch (DriverException e) {
            emit(TaskEvent.driverFailure(ctx.clock().instant(), e.getMessage()));
            ctx.tracker().setStartError(e, e.recoverable());
        }
        return Phase.RESTARTING;
    }

    /** Prestart hooks, driver start, {@code Started}, poststart hooks; returns the exit future. */
    private CompletableFuture<ExitResult> startProcess() throws HookFailedException, DriverException {
        List<TaskDevice> devices = new ArrayList<>();
        Interpolator base = ctx.envBuilder().apply(hookContext);
        Map<String, String> env = hooks.prestart(hookContext, base.env(), rec.hookStates(), devices);
        TaskHandle h;
        try {
            h = ctx.driver().start(ctx.taskConfig(hookContext.alloc(), hookContext.task(), base.withEnv(env), devices));
        } catch (RuntimeException e) {
            // a driver bug or input validation missed: the task fails with a clear event, never a stuck allocation
            log.error("driver start failed unexpectedly: alloc={} task={}", ctx.alloc().id(), name(), e);
            throw new DriverException("unexpected driver error: " + e, false, e);
        }
        rec.attach(h);
        rec.persistLocal(false);
        rec.update(s -> s.withEvent(TaskEvent.started(ctx.clock().instant())).withState(TaskState.RUNNING, ctx.clock().instant()));
        ctx.listener().taskStarted(name());
        hooks.poststart(hookContext, h);
        return ctx.driver().waitTask(h);
    }

    /** What {@link Phase#RUNNING} waits on, and {@link Phase#EXITED} looks at: the process and its restart request. */
    private void waitFor(CompletableFuture<ExitResult> exit) {
        process = new ExitStep.Started(exit, rec.restartSignal(), hookContext);
    }

    /** {@link Phase#EXITED}: the end of the process is recorded, or the agent shuts down and it keeps running. */
    private Phase exited() throws InterruptedException {
        return exits.handle(process, killSignal, shutdownSignal, () -> ctx.listener().taskOomKilled(name()))
                ? Phase.RESTARTING : Phase.OVER;
    }

    /** {@link Phase#RESTARTING}: the restart policy's decision and delay; whoever asked for the restart may go on. */
    private Phase restarting() throws InterruptedException {
        try {
            return restarts.decide(exits.killError(), killedReason, () -> ctx.listener().taskRestarting(name()), killSignal, shutdownSignal)
                    ? Phase.PRESTART : Phase.DEAD;
        } finally {
            rec.acknowledgeRestart();
        }
    }

    /** {@link Phase#DEAD_WOKEN}: an alloc-wide restart runs the task again, without delay and without using an attempt. */
    private Phase deadWoken() {
        rec.closeAllocRestart();
        if (killSignal.isDone() || shutdownSignal.isDone()) {
            return Phase.OVER;
        }
        ctx.tracker().setRestartTriggered(false);
        return Phase.RESTARTING;
    }

    /** The run threw: the task is dead with the reason, and the run is over (without stop hooks). */
    private void crashed(RuntimeException e) {
        log.error("task runner crashed: alloc={} task={}", ctx.alloc().id(), name(), e);
        rec.update(s -> s.withEvent(TaskEvent.setupFailure(ctx.clock().instant(), "task runner failed: " + e.getMessage()))
                .withState(TaskState.DEAD, ctx.clock().instant()));
    }

    private void markKilledBeforeStart() {
        var now = ctx.clock().instant();
        rec.update(s -> s.dead() ? s : s.withEvent(TaskEvent.killed(now, null)).withState(TaskState.DEAD, now));
    }

    private void stateChanged(TaskState state) {
        ctx.coordinator().taskStateChanged(name(), state);
        ctx.listener().taskStateChanged(name(), state);
    }

    // ---- the lifecycle calls, from any thread ----

    public String name() {
        return ctx.task().name();
    }

    public TaskSpec task() {
        return ctx.task();
    }

    public TaskState state() {
        return rec.state();
    }

    public CompletableFuture<Void> done() {
        return done;
    }

    public boolean started() {
        return started.get();
    }

    /** Fails a task that never ran (alloc prerun failed): Received, the event, dead. Its runner never starts. */
    public void failBeforeStart(TaskEvent event) {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        emit(TaskEvent.received(ctx.clock().instant()));
        rec.update(s -> s.withEvent(event).withState(TaskState.DEAD, ctx.clock().instant()));
        done.complete(null);
    }

    /**
     * Takes an alloc update (the caller serializes updates): the task's new size ({@link ResizeDecision#decide}) is used
     * from the next start on, the task update hooks run for a non-terminal update. Returns what the size change means for
     * the running process, for {@link #resize}.
     */
    public ResizeDecision update(AllocationSpec alloc) {
        TaskHookContext old = hookContext;
        ResizeDecision decision = ResizeDecision.decide(old.task(), TaskResize.taskIn(alloc, old.task()));
        hookContext = new TaskHookContext(alloc, old.group(), TaskResize.sized(old.task(), decision.to()), old.allocDir(), old.taskDir(),
                old.driver(), old.events());
        if (!alloc.desiredTerminal()) {
            hooks.update(hookContext, alloc);
        }
        return decision;
    }

    /** Gives the running task the size {@link #update} decided: in place, else by a restart ({@link TaskResize}). */
    public ResizeDecision resize(ResizeDecision decision) throws InterruptedException {
        return resizer.apply(decision, rec.runningHandle(), hookContext);
    }

    /**
     * Kills the task: emits {@code Killing} (unless dead), signals the run and waits until it is over, bounded by the kill
     * timeout plus the stop retries' budget. Idempotent.
     */
    public void kill(String reason) throws InterruptedException {
        if (done.isDone()) {
            return;
        }
        if (started.get() && !killSignal.isDone() && !state().dead()) {
            emit(TaskEvent.killing(ctx.clock().instant(), ctx.killTimeout(), reason));
        }
        killSignal.complete(null);
        awaitDone(killWait());
    }

    /**
     * Kills a task that an alloc update no longer lists: {@code Killing} → {@code Terminated} → {@code Killed}, both kill
     * events with {@code kill_reason} {@value #REMOVED_REASON}. Unlike Nomad the task does not fail: the alloc converges
     * to the update instead of failing its siblings.
     */
    public void killRemoved() throws InterruptedException {
        killedReason = REMOVED_REASON;
        kill(REMOVED_REASON);
    }

    /** Ends the runner but leaves the task running. */
    public void shutdown(Duration wait) throws InterruptedException {
        shutdownSignal.complete(null);
        awaitDone(wait);
    }

    /**
     * Restarts the running task (the user's or a sibling's request); blocks until the old process exited.
     *
     * @throws TaskNotRunningException if the task is not running
     */
    public void restart(String reason, boolean failure) throws TaskNotRunningException, InterruptedException {
        if (!rec.restartRunning(failure, () -> emit(TaskEvent.restartSignaled(ctx.clock().instant(), reason)), killWait())) {
            throw new TaskNotRunningException();
        }
    }

    /**
     * Nomad's {@code ForceRestart} for an alloc-wide restart: a running task restarts as by {@link #restart} (blocking
     * until the old process exited); a dead task whose run is not over (it waits in {@link Phase#DEAD} while its alloc
     * lives: Nomad's {@code RunComplete == false}) runs again. Both get {@code Restart Signaled} with {@code reason}.
     *
     * @throws TaskNotRunningException when it can do neither (pending, or its run is over)
     */
    public void forceRestart(String reason) throws TaskNotRunningException, InterruptedException {
        CompletableFuture<Void> waiting = rec.allocRestartWaiter();
        if (waiting == null) {
            restart(reason, false);
            return;
        }
        emit(TaskEvent.restartSignaled(ctx.clock().instant(), reason));
        waiting.complete(null);
    }

    /** Sends a signal to the running task with a {@code Signaling} event. */
    public void signal(String signal, String reason) throws TaskNotRunningException, DriverException {
        TaskHandle h = rec.runningHandle();
        if (h == null) {
            throw new TaskNotRunningException();
        }
        emit(TaskEvent.signaling(ctx.clock().instant(), signal, reason));
        ctx.driver().signal(h, signal);
    }

    /** {@code alloc exec} in the running task ({@link TaskExecs}): an {@code Exec} event; the session ends with this run. */
    public ExecSession exec(ExecSession.Request request) throws TaskNotRunningException, DriverException {
        return TaskExecs.start(ctx.driver(), rec.runningHandle(), request, this::emit, ctx.clock());
    }

    /** Adds an event (e.g. Sibling Task Failed) from the alloc runner. */
    public void emit(TaskEvent event) {
        rec.emit(event);
    }

    private void awaitDone(Duration wait) throws InterruptedException {
        if (started.get()) {
            TaskStopper.awaitRunOver(done, wait, ctx.alloc().id(), name());
        }
    }

    private Duration killWait() {
        return ctx.killTimeout().plus(TaskStopper.EXIT_GRACE).plus(Duration.ofSeconds(5));
    }

    /** The task is not running (Nomad's {@code ErrTaskNotRunning}). */
    public static final class TaskNotRunningException extends Exception {
        public TaskNotRunningException() {
            super("Task not running");
        }
    }
}
