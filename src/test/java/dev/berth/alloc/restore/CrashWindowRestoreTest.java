package dev.berth.alloc.restore;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.fs.AllocDir;
import dev.berth.alloc.fs.SecretsTmpfs;
import dev.berth.alloc.hooks.AllocDirHook;
import dev.berth.alloc.hooks.TaskDirHook;
import dev.berth.alloc.hooks.ValidateHook;
import dev.berth.alloc.runner.AllocRunner;
import dev.berth.alloc.runner.AllocRunnerContext;
import dev.berth.alloc.runner.RunnerHarness;
import dev.berth.alloc.spec.AllocSpecs;
import dev.berth.alloc.store.AllocRecord;
import dev.berth.alloc.store.AllocStateStore;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.alloc.store.InMemoryAllocStateStore;
import dev.berth.alloc.task.TaskEnvironment;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.JobSpec;
import dev.berth.alloc.spec.ResourcesSpec;
import dev.berth.alloc.spec.RestartPolicySpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.task.RestartTracker;
import dev.berth.config.Sleeper;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskState;
import dev.berth.driver.DriverManager;
import dev.berth.driver.ProcessSignals;
import dev.berth.host.Signals;
import dev.berth.driver.TaskHandle;
import dev.berth.driver.rawexec.RawExecDriver;
import dev.berth.driver.rawexec.TaskOutputs;

import static dev.berth.alloc.runner.RunnerHarness.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 14: the agent is "killed" (an injectable crash point: the writing thread stops and nothing more is persisted) in
 * every window between spawn, handle persisted, task state + event persisted and client status derived; a second agent
 * (a new raw_exec driver instance, the reconciler, restoring runners) then starts on what the first one left behind.
 * Real processes throughout. Whatever the window: the allocation ends {@code running} with exactly one live task process,
 * {@code Started} recorded once per process, and every process nothing accounts for killed. See {@code docs/restore.md}.
 */
class CrashWindowRestoreTest {

    static final String ID = "c0ffee00-0000-4000-8000-000000000014";

    @TempDir
    Path dir;
    private final List<AutoCloseable> cleanup = new ArrayList<>();
    private RawExecDriver second;
    private AllocRunner restored;

    @AfterEach
    void tearDown() throws Exception {
        if (restored != null) {
            restored.killTasks("test over");
        }
        for (TaskHandle h : driver().liveTasks()) {
            driver().destroy(driver().recover(h), true);
        }
        for (AutoCloseable c : cleanup.reversed()) {
            c.close();
        }
    }

    private RawExecDriver driver() {
        if (second == null) {
            second = newDriver();
        }
        return second;
    }

    private RawExecDriver newDriver() {
        ScheduledThreadPoolExecutor poller = new ScheduledThreadPoolExecutor(1, Thread.ofVirtual().name("test-crash-", 0).factory());
        RawExecDriver d = new RawExecDriver(true, Clock.systemUTC(), dir.resolve("exit"), poller, Duration.ofMillis(50),
                TaskOutputs.APPEND_TO_FILES);
        cleanup.add(d::close);
        return d;
    }

    static AllocationSpec spec(String script) {
        TaskSpec t = new TaskSpec("t", "raw_exec", Map.of("command", "/bin/sh", "args", List.of("-c", script)), null,
                new ResourcesSpec(100, 32, null, null), null, null, null, null, null, null, null);
        // restarts at once (no delay), twice in the interval, then the task fails
        RestartPolicySpec policy = new RestartPolicySpec(2, Duration.ofMinutes(30).toNanos(), 0L, "fail");
        TaskGroupSpec group = new TaskGroupSpec("g", 1, List.of(t), policy, null, null, null);
        JobSpec job = new JobSpec("j", "j", "service", "default", null, null, null, List.of(group));
        return AllocSpecs.withDefaults(new AllocationSpec(ID, "j.g[0]", "default", "j", job, "g", "run", 1L, null, null),
                Duration.ofSeconds(5));
    }

    private AllocRunnerContext context(AllocStateStore store, RawExecDriver driver) {
        Clock clock = Clock.systemUTC();
        Path allocs = dir.resolve("allocs");
        return new AllocRunnerContext(allocs, store, name -> driver, List.of(new AllocDirHook()),
                List.of(new ValidateHook(clock), new TaskDirHook(clock, SecretsTmpfs.disabled())), clock, Sleeper.system(),
                Duration.ofSeconds(5),
                (alloc, task, counters) -> new RestartTracker(task.restartPolicy().toPolicy(),
                        alloc.job().type(), task.hook(), task.sidecar(), clock, RunnerHarness.MAX_JITTER).continueFrom(counters),
                hc -> TaskEnvironment.interpolator(hc.alloc(), hc.group(), hc.task(), new AllocDir(allocs, hc.alloc().id()),
                        Map.of("node.datacenter", "dc1"), Map.of()),
                new AllocRunnerContext.AllocListener() {
                });
    }

    /**
     * Runs the first agent until it crashes at {@code crashPoint}, then starts the second one on what is on "disk": the
     * reconciler first, then the restoring runner.
     */
    private CrashPointStore crashThenRestart(String script, Predicate<CrashPointStore.Write> crashPoint) throws Exception {
        CrashPointStore store = new CrashPointStore(crashPoint);
        cleanup.add(store);
        RawExecDriver first = newDriver();
        AllocRecord rec = new AllocRecord(spec(script), ClientStatus.PENDING, "No tasks have started");
        store.putAlloc(rec);
        new AllocRunner(context(store, first), rec).start();
        assertThat(store.crashed.await(30, TimeUnit.SECONDS)).as("the first agent reached its crash point").isTrue();
        first.close();

        new Reconciler(store.disk, new DriverManager(List.of(driver())), Clock.systemUTC()).reconcile();
        restored = new AllocRunner(context(store.disk, driver()), store.disk.alloc(ID).orElseThrow(), true);
        restored.start();
        return store;
    }

    private List<TaskHandle> liveProcesses() {
        return driver().liveTasks().stream().filter(h -> h.driverState().getOrDefault("exit_file", "").contains(ID)).toList();
    }

    /** Running (in memory and on disk), exactly one live process, which is the one the persisted handle names. */
    private void assertRunningWithOneProcess() {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(restored.record().clientStatus()).isEqualTo(ClientStatus.RUNNING);
            assertThat(restored.taskStates().get("t").running()).isTrue();
            List<TaskHandle> live = liveProcesses();
            assertThat(live).hasSize(1);
            TaskHandle persisted = restoredDisk().taskLocalState(ID, "t").orElseThrow().handle();
            assertThat(persisted).isNotNull();
            assertThat(driver().taskIdentity(persisted)).isEqualTo(driver().taskIdentity(live.getFirst()));
        });
        // what a third agent would read agrees
        assertThat(restoredDisk().alloc(ID).orElseThrow().clientStatus()).isEqualTo(ClientStatus.RUNNING);
        assertThat(restoredDisk().taskStates(ID).get("t").running()).isTrue();
    }

    private InMemoryAllocStateStore disk;

    private InMemoryAllocStateStore restoredDisk() {
        return disk;
    }

    private static long count(TaskState s, String type) {
        return s.events().stream().filter(e -> e.type().equals(type)).count();
    }

    private static final String FOREVER = "exec sleep 100000";

    @Test
    void crashAfterTheAllocWasStoredBeforeAnyTaskEvent() throws Exception {
        disk = crashThenRestart(FOREVER, w -> w.taskState(s -> true)).disk;
        assertRunningWithOneProcess();
        assertThat(types(restored.taskStates().get("t"))).containsExactly("Received", "Task Setup", "Started");
    }

    @Test
    void crashAfterSpawnBeforeTheHandleWasPersisted() throws Exception {
        disk = crashThenRestart(FOREVER, w -> w.local(l -> l.handle() != null)).disk;
        assertRunningWithOneProcess();
        // the process the first agent spawned was killed (nothing accounted for it); the task was started once more
        TaskState s = restored.taskStates().get("t");
        assertThat(count(s, TaskEvent.STARTED)).isEqualTo(1);
        assertThat(types(s)).startsWith("Received", "Task Setup").endsWith("Started");
    }

    @Test
    void crashAfterTheHandleWasPersistedBeforeTheStartedEvent() throws Exception {
        CrashPointStore store = crashThenRestart(FOREVER, w -> w.taskState(TaskState::running));
        disk = store.disk;
        TaskHandle firstHandle = disk.taskLocalState(ID, "t").orElseThrow().handle();
        assertRunningWithOneProcess();
        assertThat(driver().taskIdentity(liveProcesses().getFirst())).isEqualTo(driver().taskIdentity(firstHandle));
        assertThat(types(restored.taskStates().get("t"))).containsExactly("Received", "Task Setup", "Started");
    }

    @Test
    void crashAfterTheTaskStateWasPersistedBeforeTheClientStatusWasDerived() throws Exception {
        // seed 2147149987982 of AgentCrashFaultTest: the task was persisted running, the alloc still pending
        CrashPointStore store = crashThenRestart(FOREVER, w -> w.alloc(a -> ClientStatus.RUNNING.equals(a.clientStatus())));
        disk = store.disk;
        TaskHandle firstHandle = disk.taskLocalState(ID, "t").orElseThrow().handle();
        assertThat(disk.taskStates(ID).get("t").running()).isTrue();
        assertRunningWithOneProcess();
        assertThat(driver().taskIdentity(liveProcesses().getFirst())).isEqualTo(driver().taskIdentity(firstHandle));
        assertThat(types(restored.taskStates().get("t"))).containsExactly("Received", "Task Setup", "Started");
    }

    @Test
    void crashAfterTheExitWasRecordedBeforeTheRestartDecision() throws Exception {
        // first run: exits 3; every later run: runs for good
        String script = "if [ -f \"$NOMAD_TASK_DIR/ran\" ]; then exec sleep 100000; fi; touch \"$NOMAD_TASK_DIR/ran\"; exit 3";
        disk = crashThenRestart(script, w -> w.taskState(s -> s.events().getLast().type().equals(TaskEvent.RESTARTING))).disk;
        assertRunningWithOneProcess();
        TaskState s = restored.taskStates().get("t");
        // the exit is recorded once, the restart policy decided once, the task runs again
        assertThat(types(s)).containsExactly("Received", "Task Setup", "Started", "Terminated", "Restarting", "Started");
        assertThat(s.events().get(3).exitCode()).isEqualTo(3);
        assertThat(s.restarts()).isEqualTo(1);
    }

    @Test
    void aProcessThatDiedWithoutAnExitStatusWhileTheAgentWasDownIsRestartedByPolicy() throws Exception {
        // crash once everything of the first start is persisted (the alloc reached running), then the whole task dies
        CrashPointStore store = crashThenRestartAfter(FOREVER);
        disk = store.disk;
        assertRunningWithOneProcess();
        TaskState s = restored.taskStates().get("t");
        assertThat(types(s)).containsSubsequence("Started", "Failed Restoring Task", "Restarting", "Started");
        assertThat(count(s, TaskEvent.STARTED)).isEqualTo(2);
    }

    /** The first agent crashes at its next write once running; its task's process group is SIGKILLed before the restart. */
    private CrashPointStore crashThenRestartAfter(String script) throws Exception {
        CrashPointStore store = new CrashPointStore(w -> false);
        cleanup.add(store);
        RawExecDriver first = newDriver();
        AllocRecord rec = new AllocRecord(spec(script), ClientStatus.PENDING, "No tasks have started");
        store.putAlloc(rec);
        new AllocRunner(context(store, first), rec).start();
        await().atMost(Duration.ofSeconds(30)).until(() -> store.disk.alloc(ID).orElseThrow().clientStatus().equals(ClientStatus.RUNNING));
        store.close(); // from now on nothing is persisted: the agent is gone
        first.close();
        TaskHandle h = store.disk.taskLocalState(ID, "t").orElseThrow().handle();
        int pgid = Integer.parseInt(h.driverState().get("pgid"));
        ProcessSignals.signalGroup(pgid, Signals.SIGKILL);
        await().atMost(Duration.ofSeconds(10)).until(() -> liveProcesses().isEmpty());

        new Reconciler(store.disk, new DriverManager(List.of(driver())), Clock.systemUTC()).reconcile();
        restored = new AllocRunner(context(store.disk, driver()), store.disk.alloc(ID).orElseThrow(), true);
        restored.start();
        return store;
    }
}
