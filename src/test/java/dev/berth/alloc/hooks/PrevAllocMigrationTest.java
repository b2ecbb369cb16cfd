package dev.berth.alloc.hooks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.MigrationConfiguration;
import dev.berth.alloc.runner.AllocRunner;
import dev.berth.alloc.runner.RunnerHarness;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.JobSpec;
import dev.berth.alloc.spec.ResourcesSpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.config.Sleeper;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskState;
import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricScope;
import dev.berth.config.MetricsNaming;
import dev.berth.driver.rawexec.RawExecDriver;
import dev.berth.driver.rawexec.TaskOutputs;

import static dev.berth.alloc.runner.RunnerHarness.types;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Previous-alloc waiting and disk migration with real raw_exec processes: waiting for the previous alloc, sticky migration, soft failure, cancellation. */
class PrevAllocMigrationTest {

    @TempDir
    Path dir;
    RunnerHarness h;
    PrevAllocWatcher watcher;
    MigrateHook hook;
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeEach
    void setUp() {
        ScheduledThreadPoolExecutor poller = new ScheduledThreadPoolExecutor(1, Thread.ofVirtual().name("test-raw-", 0).factory());
        RawExecDriver raw = new RawExecDriver(true, Clock.systemUTC(), dir.resolve("exit"), poller, Duration.ofMillis(50),
                TaskOutputs.APPEND_TO_FILES);
        h = new RunnerHarness(dir.resolve("allocs"), raw, Sleeper.system());
        watcher = new PrevAllocWatcher(id -> h.runners.stream().filter(r -> r.id().equals(id)).findFirst(), Duration.ofMillis(20));
        hook = new MigrateHook(watcher, Clock.systemUTC());
        BerthMetrics metrics = new BerthMetrics(registry, MetricsNaming.PROMETHEUS, "h", "n", "dc1", "");
        metrics.gauge(MigrationConfiguration.BLOCKED, MetricScope.NODE, List.of(), watcher, PrevAllocWatcher::waiting);
        metrics.gauge(MigrationConfiguration.MIGRATING, MetricScope.NODE, List.of(), hook, MigrateHook::migrating);
        h.extraAllocHooks.add(hook);
    }

    @AfterEach
    void tearDown() throws Exception {
        h.close();
    }

    static TaskSpec sh(String name, String script) {
        return new TaskSpec(name, "raw_exec", Map.of("command", "/bin/sh", "args", List.of("-c", script)), null,
                new ResourcesSpec(100, 32, null, null), null, 1_000_000_000L, null, null, null, null, null);
    }

    static AllocationSpec alloc(String id, String previous, Map<String, Object> disk, String type, TaskSpec... tasks) {
        TaskGroupSpec group = new TaskGroupSpec("g", 1, List.of(tasks), null, null, null, disk);
        JobSpec job = new JobSpec("j", "j", type, "default", null, null, null, List.of(group));
        return new AllocationSpec(id, "j.g[0]", "default", "j", job, "g", "run", 1L, previous, null);
    }

    double blocked() {
        return registry.get("berth.client.allocations.blocked").gauge().value();
    }

    /** A running predecessor that wrote alloc/data/keep and local/l. */
    AllocRunner predecessor(String id) {
        AllocRunner prev = h.runner(alloc(id, null, null, "service",
                sh("app", "echo kept > \"$NOMAD_ALLOC_DIR/data/keep\"; echo mine > \"$NOMAD_TASK_DIR/l\"; exec sleep 1000")));
        prev.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> Files.exists(prev.dir().sharedDir().resolve("data/keep"))
                && Files.exists(prev.dir().taskDir("app").resolve("local/l")));
        return prev;
    }

    static final String READER = "cat \"$NOMAD_ALLOC_DIR/data/keep\" \"$NOMAD_TASK_DIR/l\" > \"$NOMAD_TASK_DIR/seen\" 2>&1; true";

    @Test
    void aStickyReplacementWaitsForItsPredecessorAndFindsItsData() throws Exception {
        AllocRunner prev = predecessor("prev1");
        AllocRunner next = h.runner(alloc("next1", "prev1", Map.of("Sticky", true), "batch", sh("app", READER)));
        next.start();

        await().atMost(Duration.ofSeconds(10)).until(() -> blocked() == 1.0);
        assertThat(next.taskStates().get("app").startedAt()).isNull();
        assertThat(next.runDone()).isNotDone();

        prev.killTasks("replaced");
        next.runDone().get(30, TimeUnit.SECONDS);

        TaskState prevState = prev.taskStates().get("app");
        TaskState nextState = next.taskStates().get("app");
        assertThat(nextState.failed()).isFalse();
        assertThat(nextState.startedAt()).isAfterOrEqualTo(prevState.finishedAt());
        assertThat(next.dir().taskDir("app").resolve("local/seen")).hasContent("kept\nmine");
        assertThat(prev.dir().sharedDir().resolve("data")).doesNotExist();
        assertThat(blocked()).isZero();
        assertThat(registry.get("berth.client.allocations.migrating").gauge().value()).isZero();
    }

    @Test
    void withoutStickyTheReplacementWaitsButStartsWithAnEmptyDir() throws Exception {
        AllocRunner prev = predecessor("prev2");
        AllocRunner next = h.runner(alloc("next2", "prev2", Map.of("Sticky", false, "SizeMB", 300), "batch", sh("app", READER)));
        next.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> blocked() == 1.0);

        prev.killTasks("replaced");
        next.runDone().get(30, TimeUnit.SECONDS);

        assertThat(Files.readString(next.dir().taskDir("app").resolve("local/seen"))).contains("No such file");
        assertThat(prev.dir().sharedDir().resolve("data/keep")).exists();
    }

    @Test
    void aPreviousAllocUnknownOnThisNodeDoesNotBlock() throws Exception {
        AllocRunner next = h.runner(alloc("next3", "elsewhere", Map.of("Migrate", true), "batch", sh("app", "echo ran")));
        next.start();

        next.runDone().get(30, TimeUnit.SECONDS);

        assertThat(next.taskStates().get("app").failed()).isFalse();
        assertThat(types(next.taskStates().get("app"))).contains(TaskEvent.STARTED);
    }

    @Test
    void aFailedMigrationIsSoftTheTaskStartsInAFreshDirWithAWarning() throws Exception {
        AllocRunner prev = predecessor("prev4");
        AllocRunner next = h.runner(alloc("next4", "prev4", Map.of("Sticky", true), "batch", sh("app", READER)));
        // something already in the new alloc/data: the rename onto it fails
        Files.createDirectories(next.dir().sharedDir().resolve("data"));
        Files.writeString(next.dir().sharedDir().resolve("data/in-the-way"), "x");
        next.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> blocked() == 1.0);

        prev.killTasks("replaced");
        next.runDone().get(30, TimeUnit.SECONDS);

        TaskState state = next.taskStates().get("app");
        assertThat(state.failed()).isFalse();
        assertThat(state.events()).anySatisfy(e -> {
            assertThat(e.type()).isEqualTo(MigrateHook.HOOK_MESSAGE);
            assertThat(e.message()).startsWith("failed to migrate data from previous allocation prev4");
        });
        assertThat(types(state)).contains(TaskEvent.STARTED);
        assertThat(next.dir().sharedDir().resolve("data/in-the-way")).doesNotExist();
        assertThat(Files.readString(next.dir().taskDir("app").resolve("local/seen"))).contains("No such file");
    }

    @Test
    void destroyingTheWaitingAllocCancelsTheWaitAndFailsItsTasks() throws Exception {
        AllocRunner prev = predecessor("prev5");
        AllocRunner next = h.runner(alloc("next5", "prev5", Map.of("Sticky", true), "batch", sh("app", READER)));
        next.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> blocked() == 1.0);

        next.destroy().get(30, TimeUnit.SECONDS);

        assertThat(blocked()).isZero();
        assertThat(next.taskStates().get("app").failed()).isTrue();
        assertThat(types(next.taskStates().get("app"))).doesNotContain(TaskEvent.STARTED);
        assertThat(prev.taskStates().get("app").running()).isTrue();
    }

    @Test
    void agentShutdownEndsTheWaitWithoutStartingOrFailingTheTasks() throws Exception {
        predecessor("prev6");
        AllocRunner next = h.runner(alloc("next6", "prev6", Map.of("Sticky", true), "batch", sh("app", READER)));
        next.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> blocked() == 1.0);

        next.shutdown(Duration.ofSeconds(10));

        assertThat(next.runDone()).isDone();
        assertThat(blocked()).isZero();
        TaskState state = next.taskStates().get("app");
        assertThat(state.failed()).isFalse();
        assertThat(state.startedAt()).isNull();
        assertThat(Optional.ofNullable(h.store.taskStates("next6").get("app")).map(TaskState::failed).orElse(false)).isFalse();
    }
}
