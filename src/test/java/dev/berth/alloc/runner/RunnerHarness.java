package dev.berth.alloc.runner;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.random.RandomGenerator;

import dev.berth.alloc.admission.AdmissionException;
import dev.berth.alloc.admission.PortAllocator;
import dev.berth.alloc.admission.ResourceAssignment;
import dev.berth.alloc.fs.AllocDir;
import dev.berth.alloc.fs.SecretsTmpfs;
import dev.berth.alloc.hooks.AllocDirHook;
import dev.berth.alloc.hooks.TaskDirHook;
import dev.berth.alloc.hooks.ValidateHook;
import dev.berth.alloc.spec.AllocSpecs;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.JobSpec;
import dev.berth.alloc.spec.LifecycleSpec;
import dev.berth.alloc.spec.ResourcesSpec;
import dev.berth.alloc.spec.RestartPolicySpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.store.AllocRecord;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.alloc.store.InMemoryAllocStateStore;
import dev.berth.alloc.task.RestartTracker;
import dev.berth.alloc.task.TaskEnvironment;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskState;
import dev.berth.config.Sleeper;
import dev.berth.driver.TaskDriver;
import dev.berth.driver.mock.MockDriver;
import dev.berth.driver.rawexec.RawExecDriver;
import dev.berth.driver.rawexec.TaskOutputs;

/** Builds alloc runners wired to the real mock_driver, an in-memory store and a recording sleeper. */
public final class RunnerHarness implements AutoCloseable {

    public final InMemoryAllocStateStore store = new InMemoryAllocStateStore();
    public final Clock clock = Clock.systemUTC();
    public final MockDriver mock;
    /** Every delay the runners asked to wait, in order. */
    public final List<Duration> sleeps = new CopyOnWriteArrayList<>();
    public final List<String> finished = new CopyOnWriteArrayList<>();
    public final List<String> oomKilled = new CopyOnWriteArrayList<>();
    public final Path root;
    public final List<AllocRunner> runners = new ArrayList<>();
    /** Hooks appended after the standard ones (set before creating runners). */
    public final List<AllocHooks.AllocHook> extraAllocHooks = new ArrayList<>();
    public final List<dev.berth.alloc.task.TaskHooks.TaskHook> extraTaskHooks = new ArrayList<>();
    /** The task dir hook's tmpfs policy (off unless a test turns it on). */
    public SecretsTmpfs secretsTmpfs = SecretsTmpfs.disabled();

    /** Jitter is {@code (bound-1)*0.25}: deterministic so delays are asserted exactly. */
    public static final RandomGenerator MAX_JITTER = new RandomGenerator() {
        @Override
        public long nextLong() {
            return 0;
        }

        @Override
        public long nextLong(long bound) {
            return bound - 1;
        }
    };

    private final TaskDriver override;
    private final Sleeper sleeper;

    public RunnerHarness(Path root) {
        this(root, null, null);
    }

    /** With another driver (raw_exec) and/or a real sleeper. */
    public RunnerHarness(Path root, TaskDriver driver, Sleeper realSleeper) {
        this.root = root;
        this.override = driver;
        this.sleeper = realSleeper;
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, Thread.ofVirtual().name("test-mock-", 0).factory());
        this.mock = new MockDriver(true, clock, scheduler, dev.berth.config.Sleeper.system());
    }

    /**
     * A real raw_exec driver for runner tests: exit files under {@code dir/exit}, its own poller thread (named
     * {@code threadPrefix}N), output appended to the task's log files.
     */
    public static RawExecDriver rawExec(Path dir, String threadPrefix) {
        ScheduledThreadPoolExecutor poller = new ScheduledThreadPoolExecutor(1, Thread.ofVirtual().name(threadPrefix, 0).factory());
        return new RawExecDriver(true, Clock.systemUTC(), dir.resolve("exit"), poller, Duration.ofMillis(50),
                TaskOutputs.APPEND_TO_FILES);
    }

    public Sleeper sleeper() {
        return (d, cancel) -> {
            sleeps.add(d);
            return sleeper != null ? sleeper.sleep(d, cancel) : !cancel.isDone();
        };
    }

    public AllocRunnerContext context(Duration maxKillTimeout) {
        TaskDriver driver = override != null ? override : mock;
        List<AllocHooks.AllocHook> allocHooks = new ArrayList<>(List.of(new AllocDirHook()));
        allocHooks.addAll(extraAllocHooks);
        List<dev.berth.alloc.task.TaskHooks.TaskHook> taskHooks = new ArrayList<>(List.of(new ValidateHook(clock), new TaskDirHook(clock, secretsTmpfs)));
        taskHooks.addAll(extraTaskHooks);
        return new AllocRunnerContext(root, store, name -> driver, allocHooks,
                taskHooks, clock, sleeper(), maxKillTimeout,
                (alloc, task, restored) -> new RestartTracker(task.restartPolicy().toPolicy(), alloc.job().type(),
                        task.hook(), task.sidecar(), clock, MAX_JITTER),
                hc -> TaskEnvironment.interpolator(hc.alloc(), hc.group(), hc.task(), new AllocDir(root, hc.alloc().id()),
                        Map.of("node.datacenter", "dc1", "node.unique.name", "harness", "attr.kernel.name", "linux"), System.getenv()),
                new AllocRunnerContext.AllocListener() {
                    @Override
                    public void allocFinished(String allocId) {
                        finished.add(allocId);
                    }

                    @Override
                    public void taskOomKilled(String allocId, String task) {
                        oomKilled.add(allocId + "/" + task);
                    }
                });
    }

    public AllocRunner runner(AllocationSpec spec) {
        return runner(spec, null);
    }

    public AllocRunner runner(AllocationSpec spec, PortAllocator ports) {
        AllocationSpec withDefaults = AllocSpecs.withDefaults(spec, Duration.ofSeconds(30));
        if (ports != null) {
            try {
                withDefaults = ResourceAssignment.assign(withDefaults, ports);
            } catch (AdmissionException e) {
                throw new IllegalStateException(e);
            }
        }
        AllocRecord rec = new AllocRecord(withDefaults, ClientStatus.PENDING, "");
        store.putAlloc(rec);
        AllocRunner r = new AllocRunner(context(Duration.ofSeconds(30)), rec);
        runners.add(r);
        return r;
    }

    public static TaskSpec task(String name, Map<String, Object> config) {
        return new TaskSpec(name, MockDriver.NAME, config, null, new ResourcesSpec(100, 64, null, null), null, null, null, null,
                null, null, null);
    }

    public static TaskSpec leader(TaskSpec t) {
        return new TaskSpec(t.name(), t.driver(), t.config(), t.env(), t.resources(), t.restartPolicy(), t.killTimeout(),
                t.killSignal(), true, t.lifecycle(), t.meta(), t.logConfig());
    }

    public static TaskSpec lifecycle(TaskSpec t, String hook, boolean sidecar) {
        return new TaskSpec(t.name(), t.driver(), t.config(), t.env(), t.resources(), t.restartPolicy(), t.killTimeout(),
                t.killSignal(), t.leader(), new LifecycleSpec(hook, sidecar), t.meta(), t.logConfig());
    }

    public static AllocationSpec alloc(String id, String type, RestartPolicySpec policy, TaskSpec... tasks) {
        TaskGroupSpec group = new TaskGroupSpec("web", 1, List.of(tasks), policy, null, Map.of("gm", "1"), null);
        JobSpec job = new JobSpec("job1", "job1", type, "default", null, null, Map.of("owner", "me"), List.of(group));
        return new AllocationSpec(id, "job1.web[0]", "default", "job1", job, "web", "run", 10L, null, null);
    }

    public static List<String> types(TaskState state) {
        return state.events().stream().map(TaskEvent::type).toList();
    }

    @Override
    public void close() throws Exception {
        for (AllocRunner r : runners) {
            r.destroy().get(60, java.util.concurrent.TimeUnit.SECONDS);
        }
        mock.close();
    }
}
