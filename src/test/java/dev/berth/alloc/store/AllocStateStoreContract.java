package dev.berth.alloc.store;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import dev.berth.alloc.runner.RunnerHarness;
import dev.berth.alloc.spec.AllocSpecs;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.NetworkSpec;
import dev.berth.alloc.task.RestartTracker;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskLocalState;
import dev.berth.alloc.task.TaskState;
import dev.berth.driver.ExitResult;
import dev.berth.driver.TaskHandle;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@link AllocStateStore} contract (seed 002), run against every implementation: in memory and H2 (Spring JDBC).
 */
public abstract class AllocStateStoreContract {

    protected abstract AllocStateStore store();

    private static final Instant T0 = Instant.parse("2026-11-22T00:00:00.123456789Z");

    static AllocationSpec spec(String id) {
        AllocationSpec raw = RunnerHarness.alloc(id, "service", null, RunnerHarness.task("t", Map.of("run_for", "1h", "exit_code", 3)));
        var shared = new AllocationSpec.AllocatedResources(null, new AllocationSpec.AllocatedShared(
                List.of(new NetworkSpec(null, "127.0.0.1", null, List.of(new NetworkSpec.PortSpec("http", 20001, 8080)))), null));
        return AllocSpecs.withDefaults(raw, Duration.ofSeconds(30)).withAllocatedResources(shared);
    }

    static TaskState state() {
        return TaskState.initial()
                .withEvent(TaskEvent.received(T0))
                .withEvent(TaskEvent.started(T0.plusSeconds(1))).withState(TaskState.RUNNING, T0.plusSeconds(1))
                .withEvent(TaskEvent.terminated(T0.plusSeconds(2), new ExitResult(1, 9, false, "oops")))
                .withEvent(TaskEvent.restarting(T0.plusSeconds(2), Duration.ofSeconds(15), "Restart within policy"))
                .withEvent(TaskEvent.notRestarting(T0.plusSeconds(3), "Error was unrecoverable"))
                .withState(TaskState.DEAD, T0.plusSeconds(3));
    }

    @Test
    void storesAndReturnsAllocations() {
        AllocationSpec spec = spec("s1");
        assertThat(store().putAlloc(new AllocRecord(spec, ClientStatus.RUNNING, "Tasks are running"))).isTrue();
        AllocRecord back = store().alloc("s1").orElseThrow();
        assertThat(back.spec()).isEqualTo(spec);
        assertThat(back.clientStatus()).isEqualTo(ClientStatus.RUNNING);
        assertThat(back.clientDescription()).isEqualTo("Tasks are running");
        assertThat(store().allocs()).extracting(AllocRecord::id).contains("s1");
        assertThat(store().alloc("nope")).isEmpty();
    }

    @Test
    void storesDeviceRequestsAndReservedDevices() {
        var task = new dev.berth.alloc.spec.TaskSpec("t", "raw_exec", Map.of("command", "/bin/true"), null,
                new dev.berth.alloc.spec.ResourcesSpec(100, 64, null, null,
                        List.of(new dev.berth.device.DeviceRequest("nvidia/gpu", 2))), null, null, null, null, null, null, null);
        AllocationSpec raw = RunnerHarness.alloc("sd", "service", null, task);
        var devices = List.of(new dev.berth.device.AllocatedDevice("nvidia", "gpu", "Tesla T4", List.of("GPU-1", "GPU-2")));
        var allocated = new AllocationSpec.AllocatedResources(Map.of("t", new AllocationSpec.AllocatedTaskResources(
                new AllocationSpec.AllocatedCpu(100, null), Map.of("MemoryMB", 64L), null, devices)), null);
        AllocationSpec spec = AllocSpecs.withDefaults(raw, Duration.ofSeconds(30)).withAllocatedResources(allocated);
        store().putAlloc(new AllocRecord(spec, ClientStatus.PENDING, ""));
        AllocationSpec back = store().alloc("sd").orElseThrow().spec();
        assertThat(back).isEqualTo(spec);
        assertThat(back.allocatedResources().tasks().get("t").devices()).isEqualTo(devices);
        assertThat(back.group().orElseThrow().tasks().getFirst().resources().deviceRequests())
                .containsExactly(new dev.berth.device.DeviceRequest("nvidia/gpu", 2));
    }

    @Test
    void storesReservedCores() {
        var task = new dev.berth.alloc.spec.TaskSpec("t", "exec", Map.of("command", "/bin/true"), null,
                new dev.berth.alloc.spec.ResourcesSpec(0, 64, null, null, null, null, 2), null, null, null, null, null, null, null);
        var allocated = new AllocationSpec.AllocatedResources(Map.of("t", new AllocationSpec.AllocatedTaskResources(
                new AllocationSpec.AllocatedCpu(4000, List.of(3, 1)), Map.of("MemoryMB", 64L), null)), null);
        AllocationSpec spec = AllocSpecs.withDefaults(RunnerHarness.alloc("sc", "service", null, task), Duration.ofSeconds(30))
                .withAllocatedResources(allocated);
        store().putAlloc(new AllocRecord(spec, ClientStatus.RUNNING, ""));

        AllocationSpec back = store().alloc("sc").orElseThrow().spec();

        assertThat(back.allocatedCpu("t")).isEqualTo(new AllocationSpec.AllocatedCpu(4000, List.of(3, 1)));
        assertThat(back.group().orElseThrow().tasks().getFirst().resources().coreCount()).isEqualTo(2);
    }

    @Test
    void aDestroyIntentIsKeptUntilTheAllocIsDeleted() {
        assertThat(store().markDestroying("sx")).as("unknown alloc").isFalse();
        store().putAlloc(new AllocRecord(spec("sx"), ClientStatus.RUNNING, ""));
        assertThat(store().markDestroying("sx")).isTrue();
        assertThat(store().markDestroying("sx")).isTrue();
        assertThat(store().destroying()).containsExactly("sx");
        store().deleteAlloc("sx");
        assertThat(store().destroying()).isEmpty();
        assertThat(store().markDestroying("sx")).as("tombstoned").isFalse();
    }

    @Test
    void storesTheSubmittedDocumentBesideTheRecordAndDeletesItWithIt() {
        assertThat(store().putDocument("sdoc", new AllocDocument(Map.of("ID", "sdoc"), 1, 1, 5))).as("no alloc yet").isFalse();
        store().putAlloc(new AllocRecord(spec("sdoc"), ClientStatus.PENDING, ""));
        Map<String, Object> submitted = new java.util.LinkedHashMap<>();
        submitted.put("ID", "sdoc");
        submitted.put("FutureField", Map.of("Nested", List.of(1, "two", true)));
        AllocDocument doc = new AllocDocument(submitted, 7, 9, 1_700_000_000_123_456_789L);
        assertThat(store().putDocument("sdoc", doc)).isTrue();
        // a record write leaves the document alone
        store().putAlloc(new AllocRecord(spec("sdoc"), ClientStatus.RUNNING, "Tasks are running"));
        assertThat(store().documents()).containsEntry("sdoc", doc);
        store().deleteAlloc("sdoc");
        assertThat(store().documents()).doesNotContainKey("sdoc");
        assertThat(store().putDocument("sdoc", doc)).isFalse();
    }

    @Test
    void replacesAnAllocation() {
        store().putAlloc(new AllocRecord(spec("s2"), ClientStatus.PENDING, ""));
        store().putAlloc(new AllocRecord(spec("s2").withDesiredStatus("stop"), ClientStatus.COMPLETE, "All tasks have completed"));
        assertThat(store().alloc("s2").orElseThrow().spec().desiredStatus()).isEqualTo("stop");
        assertThat(store().allocs().stream().filter(a -> a.id().equals("s2")).count()).isEqualTo(1);
    }

    @Test
    void storesTaskStatesWithEvents() {
        store().putAlloc(new AllocRecord(spec("s3"), ClientStatus.PENDING, ""));
        TaskState s = state();
        assertThat(store().putTaskState("s3", "t", s)).isTrue();
        assertThat(store().taskStates("s3")).containsExactly(Map.entry("t", s));
        TaskState back = store().taskStates("s3").get("t");
        assertThat(back.events()).hasSize(5);
        assertThat(back.events().get(2).exitCode()).isEqualTo(1);
        assertThat(back.events().get(2).displayMessage()).isEqualTo("Exit Code: 1, Signal: 9, Exit Message: \"oops\"");
        assertThat(back.restarts()).isEqualTo(1);
        assertThat(back.failed()).isTrue();
    }

    @Test
    void storesLocalStateForRestore() {
        store().putAlloc(new AllocRecord(spec("s4"), ClientStatus.PENDING, ""));
        TaskHandle handle = new TaskHandle("raw_exec", "s4/t", T0, Map.of("pid", "42", "start_ticks", "123"));
        TaskLocalState local = new TaskLocalState(handle, java.util.Map.of("task_dir", new dev.berth.alloc.task.HookState(true, java.util.Map.of("A", "b"), java.util.List.of(new dev.berth.driver.TaskDevice.Node("/dev/a:b", "/dev/x", "rw"), new dev.berth.driver.TaskDevice.Mount("/h", "/t", true)))), new RestartTracker.Counters(2, T0), true);
        assertThat(store().putTaskLocalState("s4", "t", local)).isTrue();
        assertThat(store().taskLocalState("s4", "t")).contains(local);
        assertThat(store().taskLocalState("s4", "other")).isEmpty();
    }

    @Test
    void ignoresTaskWritesForUnknownAllocations() {
        assertThat(store().putTaskState("ghost", "t", state())).isFalse();
        assertThat(store().putTaskLocalState("ghost", "t", TaskLocalState.empty())).isFalse();
        assertThat(store().taskStates("ghost")).isEmpty();
    }

    @Test
    void aDeletedAllocationIsNeverResurrected() {
        store().putAlloc(new AllocRecord(spec("s5"), ClientStatus.RUNNING, ""));
        store().putTaskState("s5", "t", state());
        store().deleteAlloc("s5");
        store().deleteAlloc("s5");
        assertThat(store().isDeleted("s5")).isTrue();
        assertThat(store().alloc("s5")).isEmpty();
        assertThat(store().taskStates("s5")).isEmpty();
        assertThat(store().putAlloc(new AllocRecord(spec("s5"), ClientStatus.RUNNING, ""))).isFalse();
        assertThat(store().putTaskState("s5", "t", state())).isFalse();
        assertThat(store().putTaskLocalState("s5", "t", TaskLocalState.empty())).isFalse();
        assertThat(store().alloc("s5")).isEmpty();
        assertThat(store().taskStates("s5")).isEmpty();
        assertThat(store().taskLocalState("s5", "t")).isEmpty();
    }

    @Test
    void lateConcurrentWritesDoNotSurviveADelete() throws Exception {
        store().putAlloc(new AllocRecord(spec("s6"), ClientStatus.RUNNING, ""));
        List<Future<?>> writers = new ArrayList<>();
        try (var exec = Executors.newFixedThreadPool(4)) {
            for (int w = 0; w < 4; w++) {
                String task = "t" + w;
                writers.add(exec.submit(() -> {
                    for (int i = 0; i < 50; i++) {
                        store().putTaskState("s6", task, state().withEvent(TaskEvent.received(T0.plus(i, ChronoUnit.MILLIS))));
                        store().putAlloc(new AllocRecord(spec("s6"), ClientStatus.RUNNING, "w" + i));
                    }
                }));
            }
            store().deleteAlloc("s6");
            for (Future<?> f : writers) {
                f.get();
            }
        }
        assertThat(store().alloc("s6")).isEmpty();
        assertThat(store().taskStates("s6")).isEmpty();
    }

    /** Issue 7: the reconciliation reads every persisted handle at once; destroyed allocs contribute none. */
    @Test
    void listsEveryTaskLocalStateOfStoredAllocs() {
        var handle = new dev.berth.driver.TaskHandle("raw_exec", "r1/t", T0, Map.of("pid", "42", "start_ticks", "7"));
        store().putAlloc(new AllocRecord(spec("r1"), null, null));
        store().putAlloc(new AllocRecord(spec("r2"), null, null));
        store().putTaskLocalState("r1", "t", new TaskLocalState(handle, java.util.Map.of(), new RestartTracker.Counters(1, T0), false));
        store().putTaskLocalState("r2", "t", TaskLocalState.empty());
        store().deleteAlloc("r2");

        Map<String, TaskLocalState> all = store().allTaskLocalStates();

        assertThat(all).containsKey("r1/t").doesNotContainKey("r2/t");
        assertThat(all.get("r1/t").handle()).isEqualTo(handle);
        assertThat(all.get("r1/t").restarts()).isEqualTo(new RestartTracker.Counters(1, T0));
    }
}
