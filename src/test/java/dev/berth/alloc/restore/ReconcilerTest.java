package dev.berth.alloc.restore;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import dev.berth.alloc.store.AllocDocument;
import dev.berth.alloc.store.AllocRecord;
import dev.berth.alloc.store.AllocStateStore;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.alloc.store.InMemoryAllocStateStore;
import dev.berth.alloc.task.TaskLocalState;
import dev.berth.driver.DriverException;
import dev.berth.driver.DriverFingerprint;
import dev.berth.driver.DriverManager;
import dev.berth.driver.ExitResult;
import dev.berth.driver.TaskConfig;
import dev.berth.driver.TaskDriver;
import dev.berth.driver.TaskHandle;

import static dev.berth.alloc.runner.RunnerHarness.alloc;
import static dev.berth.alloc.runner.RunnerHarness.task;
import static org.assertj.core.api.Assertions.assertThat;

/** Crash reconciliation: live processes with a persisted handle are kept, every other one is recovered and destroyed. */
class ReconcilerTest {

    /** A driver standing in for the host: what liveTasks reports, and what was destroyed. */
    static final class HostDriver implements TaskDriver {
        final List<TaskHandle> live = new ArrayList<>();
        final List<String> destroyed = new ArrayList<>();

        @Override
        public String name() {
            return "raw_exec";
        }

        @Override
        public Duration fingerprintPeriod() {
            return Duration.ofSeconds(30);
        }

        @Override
        public DriverFingerprint fingerprint() {
            return DriverFingerprint.healthy(Map.of());
        }

        @Override
        public void validate(Map<String, Object> config) {
        }

        @Override
        public TaskHandle start(TaskConfig task) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<ExitResult> waitTask(TaskHandle handle) {
            return new CompletableFuture<>();
        }

        @Override
        public void stop(TaskHandle handle, Duration timeout, String signal) {
        }

        @Override
        public void signal(TaskHandle handle, String signal) {
        }

        @Override
        public void destroy(TaskHandle handle, boolean force) throws DriverException {
            if (!force) {
                throw new DriverException("cannot destroy running task", false);
            }
            destroyed.add(handle.driverState().get("pid"));
        }

        @Override
        public TaskHandle recover(TaskHandle handle) {
            return handle;
        }

        @Override
        public List<TaskHandle> liveTasks() {
            return live;
        }
    }

    static final java.time.Clock CLOCK = java.time.Clock.fixed(Instant.parse("2026-11-22T01:00:00Z"), java.time.ZoneOffset.UTC);

    @Test
    void aStoppedAllocKeepsNoProcessAndItsLiveTasksAreRecordedDead() {
        InMemoryAllocStateStore store = new InMemoryAllocStateStore();
        var spec = alloc("s1", "service", null, task("web", Map.of()));
        var stopped = new dev.berth.alloc.spec.AllocationSpec(spec.id(), spec.name(), spec.namespace(), spec.jobId(), spec.job(),
                spec.taskGroup(), "stop", 2L, null, spec.allocatedResources());
        store.putAlloc(new AllocRecord(stopped, ClientStatus.RUNNING, "Tasks are running"));
        var running = dev.berth.alloc.task.TaskState.initial().withState(dev.berth.alloc.task.TaskState.RUNNING, Instant.EPOCH);
        store.putTaskState("s1", "web", running);
        store.putTaskLocalState("s1", "web", new TaskLocalState(handle("s1/web", 100, 7), java.util.Map.of(), null, false));
        HostDriver host = new HostDriver();
        host.live.add(handle("unknown:1", 100, 7));

        Reconciler.Report report = new Reconciler(store, new DriverManager(List.of(host)), CLOCK).reconcile();

        assertThat(host.destroyed).containsExactly("100");
        assertThat(report.killed()).isEqualTo(1);
        var web = store.taskStates("s1").get("web");
        assertThat(web.dead()).isTrue();
        assertThat(web.events().getLast().type()).isEqualTo("Killed");
        assertThat(store.alloc("s1").orElseThrow().clientStatus()).isEqualTo(ClientStatus.COMPLETE);
    }

    static TaskHandle handle(String taskId, int pid, long ticks) {
        return new TaskHandle("raw_exec", taskId, Instant.EPOCH, Map.of("pid", Integer.toString(pid), "start_ticks", Long.toString(ticks)));
    }

    @Test
    void keepsPersistedProcessesAndKillsTheRest() {
        InMemoryAllocStateStore store = new InMemoryAllocStateStore();
        store.putAlloc(new AllocRecord(alloc("a1", "service", null, task("web", Map.of()), task("side", Map.of())), null, null));
        store.putTaskLocalState("a1", "web", new TaskLocalState(handle("a1/web", 100, 7), java.util.Map.of(), null, false));
        // side: crashed between start and persisting its handle → no handle stored
        store.putTaskLocalState("a1", "side", TaskLocalState.empty());
        HostDriver host = new HostDriver();
        host.live.add(handle("unknown:1", 100, 7));   // a1/web: accounted for
        host.live.add(handle("unknown:2", 101, 8));   // a1/side's process: no handle → killed, restore starts it again
        host.live.add(handle("unknown:3", 100, 9));   // pid 100 recycled: other start ticks → not a1/web
        host.live.add(handle("unknown:4", 300, 1));   // a destroyed or forgotten alloc's task

        Reconciler.Report report = new Reconciler(store, new DriverManager(List.of(host)), CLOCK).reconcile();

        assertThat(host.destroyed).containsExactly("101", "100", "300");
        assertThat(report).isEqualTo(new Reconciler.Report(4, 1, 3, 0));
    }

    @Test
    void withAnEmptyStateEveryLiveProcessIsKilled() {
        HostDriver host = new HostDriver();
        host.live.add(handle("unknown:1", 100, 7));
        Reconciler.Report report = new Reconciler(new InMemoryAllocStateStore(), new DriverManager(List.of(host)), CLOCK).reconcile();
        assertThat(host.destroyed).containsExactly("100");
        assertThat(report.killed()).isEqualTo(1);
    }

    @Test
    void aTaskAnUpdateRemovedKeepsNoProcess() {
        // the agent stopped while killing a task the update removed: the stored spec no longer lists it, its handle is left
        AllocStateStore store = new AllTasksStore(new InMemoryAllocStateStore());
        store.putAlloc(new AllocRecord(alloc("a1", "service", null, task("web", Map.of())), null, null));
        store.putTaskLocalState("a1", "web", new TaskLocalState(handle("a1/web", 100, 7), java.util.Map.of(), null, false));
        store.putTaskLocalState("a1", "gone", new TaskLocalState(handle("a1/gone", 200, 7), java.util.Map.of(), null, false));
        HostDriver host = new HostDriver();
        host.live.add(handle("unknown:1", 100, 7));
        host.live.add(handle("unknown:2", 200, 7));

        Reconciler.Report report = new Reconciler(store, new DriverManager(List.of(host)), CLOCK).reconcile();

        assertThat(host.destroyed).containsExactly("200");
        assertThat(report).isEqualTo(new Reconciler.Report(2, 1, 1, 0));
    }

    /** Like the H2 store: every persisted local state, also of tasks the stored spec no longer lists. */
    private record AllTasksStore(InMemoryAllocStateStore d) implements AllocStateStore {
        @Override
        public Map<String, TaskLocalState> allTaskLocalStates() {
            Map<String, TaskLocalState> all = new java.util.HashMap<>(d.allTaskLocalStates());
            d.taskLocalState("a1", "gone").ifPresent(l -> all.put("a1/gone", l));
            return all;
        }

        @Override
        public boolean putAlloc(AllocRecord alloc) {
            return d.putAlloc(alloc);
        }

        @Override
        public boolean markDestroying(String allocId) {
            return d.markDestroying(allocId);
        }

        @Override
        public java.util.Set<String> destroying() {
            return d.destroying();
        }

        @Override
        public boolean putDocument(String allocId, AllocDocument document) {
            return d.putDocument(allocId, document);
        }

        @Override
        public Map<String, AllocDocument> documents() {
            return d.documents();
        }

        @Override
        public java.util.Optional<AllocRecord> alloc(String allocId) {
            return d.alloc(allocId);
        }

        @Override
        public List<AllocRecord> allocs() {
            return d.allocs();
        }

        @Override
        public boolean putTaskState(String allocId, String taskName, dev.berth.alloc.task.TaskState state) {
            return d.putTaskState(allocId, taskName, state);
        }

        @Override
        public Map<String, dev.berth.alloc.task.TaskState> taskStates(String allocId) {
            return d.taskStates(allocId);
        }

        @Override
        public boolean putTaskLocalState(String allocId, String taskName, TaskLocalState state) {
            return d.putTaskLocalState(allocId, taskName, state);
        }

        @Override
        public java.util.Optional<TaskLocalState> taskLocalState(String allocId, String taskName) {
            return d.taskLocalState(allocId, taskName);
        }

        @Override
        public void deleteAlloc(String allocId) {
            d.deleteAlloc(allocId);
        }

        @Override
        public boolean isDeleted(String allocId) {
            return d.isDeleted(allocId);
        }
    }
}
