package dev.berth.alloc;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.admission.AdmissionException;
import dev.berth.alloc.admission.PortAllocator;
import dev.berth.alloc.fs.AllocDir;
import dev.berth.alloc.runner.RunnerHarness;
import dev.berth.alloc.spec.AllocSpecs;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.NetworkSpec;
import dev.berth.alloc.spec.RestartPolicySpec;
import dev.berth.alloc.spec.SpecValidationException;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.store.ClientStatus;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.alloc.task.TaskState;
import dev.berth.driver.ExitResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Pure parts: alloc dir layout, ports, client status, events, defaults and validation. */
class AllocPartsTest {

    @TempDir
    Path dir;

    private static int mode(Path p) throws Exception {
        return (Integer) Files.getAttribute(p, "unix:mode") & 07777;
    }

    @Test
    void allocDirHasNomadsLayoutAndPermissionsAndIsSafeConcurrently() throws Exception {
        AllocDir d = new AllocDir(dir, "a");
        try (var exec = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 8; i++) {
                String task = "t" + (i % 3);
                exec.submit(() -> {
                    d.build();
                    d.buildTask(task);
                    return null;
                });
            }
        }
        assertThat(mode(d.path())).isEqualTo(0755);
        assertThat(mode(d.sharedDir())).isEqualTo(0755);
        for (String sub : List.of("logs", "tmp", "data")) {
            assertThat(mode(d.sharedDir().resolve(sub))).isEqualTo(0777);
        }
        assertThat(mode(d.taskDir("t0"))).isEqualTo(0777);
        assertThat(mode(d.taskDir("t0").resolve("local"))).isEqualTo(0777);
        assertThat(mode(d.taskDir("t0").resolve("tmp"))).isEqualTo(01777);
        assertThat(d.taskDir("t2").resolve("secrets")).isDirectory();
        assertThat(d.taskDir("t2").resolve("private")).isDirectory();
        assertThat(d.stdout("t0")).isEqualTo(d.sharedDir().resolve("logs/t0.stdout.0"));
        d.destroy();
        d.destroy();
        assertThat(d.path()).doesNotExist();
    }

    @Test
    void portsAreAssignedCheckedAndReleased() throws Exception {
        PortAllocator ports = new PortAllocator(30000, 30002, RandomGenerator.getDefault(), p -> p != 30001);
        var nets = List.of(new NetworkSpec(null, null, List.of(new NetworkSpec.PortSpec("db", 30000, null)),
                List.of(new NetworkSpec.PortSpec("http", null, null))));
        List<NetworkSpec> out = ports.assign("a1", nets);
        assertThat(out.getFirst().dynamicPorts().getFirst().value()).isEqualTo(30002);
        assertThat(out.getFirst().ip()).isEqualTo("127.0.0.1");
        assertThatExceptionOfType(AdmissionException.class).isThrownBy(() -> ports.assign("a2", nets))
                .withMessage("reserved port collision db=30000");
        var dynOnly = List.of(new NetworkSpec(null, null, null, List.of(new NetworkSpec.PortSpec("x", null, null))));
        assertThatExceptionOfType(AdmissionException.class).isThrownBy(() -> ports.assign("a3", dynOnly))
                .withMessageContaining("no free port");
        assertThat(ports.inUse()).isEqualTo(2);
        ports.release("a1");
        assertThat(ports.inUse()).isZero();
        assertThat(ports.assign("a2", nets)).isNotNull();
    }

    @Test
    void aReservedPortThatIsReallyBoundIsRefused() throws Exception {
        try (var s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            assertThat(PortAllocator.bindableOnLoopback(s.getLocalPort())).isFalse();
        }
    }

    @Test
    void clientStatusFollowsNomadsOrder() {
        TaskState pending = TaskState.initial();
        TaskState running = pending.withState(TaskState.RUNNING, Instant.EPOCH);
        TaskState dead = running.withState(TaskState.DEAD, Instant.EPOCH);
        TaskState failed = dead.withFailed();
        assertThat(ClientStatus.derive(List.of(running, failed))).isEqualTo(new ClientStatus.Derived("failed", "Failed tasks"));
        assertThat(ClientStatus.derive(List.of(running, dead, pending))).isEqualTo(new ClientStatus.Derived("running", "Tasks are running"));
        assertThat(ClientStatus.derive(List.of(pending, dead))).isEqualTo(new ClientStatus.Derived("pending", "No tasks have started"));
        assertThat(ClientStatus.derive(List.of(dead, dead))).isEqualTo(new ClientStatus.Derived("complete", "All tasks have completed"));
    }

    @Test
    void taskStateKeepsTheLastTenEventsAndCountsRestarts() {
        TaskState s = TaskState.initial();
        for (int i = 0; i < 12; i++) {
            s = s.withEvent(TaskEvent.restarting(Instant.ofEpochSecond(i), Duration.ofSeconds(1), "Restart within policy"));
        }
        assertThat(s.events()).hasSize(10);
        assertThat(s.events().getFirst().time()).isEqualTo(Instant.ofEpochSecond(2));
        assertThat(s.restarts()).isEqualTo(12);
        assertThat(s.lastRestart()).isEqualTo(Instant.ofEpochSecond(11));
        TaskState started = s.withState(TaskState.RUNNING, Instant.ofEpochSecond(20));
        assertThat(started.withState(TaskState.DEAD, Instant.ofEpochSecond(30)).withState(TaskState.DEAD, Instant.ofEpochSecond(40))
                .finishedAt()).isEqualTo(Instant.ofEpochSecond(30));
    }

    @Test
    void eventDisplayMessagesAreNomads() {
        Instant t = Instant.EPOCH;
        assertThat(TaskEvent.received(t).displayMessage()).isEqualTo("Task received by client");
        assertThat(TaskEvent.terminated(t, ExitResult.ofCode(2)).displayMessage()).isEqualTo("Exit Code: 2");
        assertThat(TaskEvent.restarting(t, Duration.ofMillis(15_500), "Restart within policy").displayMessage())
                .isEqualTo("Task restarting in 15.5s");
        assertThat(TaskEvent.restarting(t, Duration.ofMinutes(2), "Exceeded allowed attempts, applying a delay").displayMessage())
                .isEqualTo("Exceeded allowed attempts, applying a delay - Task restarting in 2m0s");
        assertThat(TaskEvent.killed(t, null).displayMessage()).isEqualTo("Task successfully killed");
        assertThat(TaskEvent.leaderDead(t).displayMessage()).isEqualTo("Leader Task in Group dead");
        assertThat(TaskEvent.failedValidation(t, "bad").failsTask()).isTrue();
        assertThat(TaskEvent.signaling(t, "SIGHUP", "User requested signal").displayMessage())
                .isEqualTo("Task being sent signal SIGHUP: User requested signal");
    }

    @Test
    void defaultsFollowNomad() {
        TaskSpec bare = new TaskSpec("t", "mock_driver", Map.of(), null, null, null, Duration.ofMinutes(5).toNanos(), null, null, null, null, null);
        AllocationSpec batch = AllocSpecs.withDefaults(RunnerHarness.alloc("x", "batch", null, bare), Duration.ofSeconds(30));
        TaskSpec t = batch.group().orElseThrow().tasks().getFirst();
        assertThat(t.restartPolicy()).isEqualTo(new RestartPolicySpec(3, Duration.ofHours(24).toNanos(), Duration.ofSeconds(15).toNanos(), "fail"));
        assertThat(t.killTimeout()).isEqualTo(Duration.ofSeconds(30).toNanos());
        assertThat(t.cpu()).isEqualTo(100);
        assertThat(t.memoryMb()).isEqualTo(300);
        RestartPolicySpec partial = new RestartPolicySpec(5, null, null, "delay");
        AllocationSpec svc = AllocSpecs.withDefaults(RunnerHarness.alloc("x", "service", partial, bare), Duration.ofSeconds(30));
        assertThat(svc.group().orElseThrow().tasks().getFirst().restartPolicy())
                .isEqualTo(new RestartPolicySpec(5, Duration.ofMinutes(30).toNanos(), Duration.ofSeconds(15).toNanos(), "delay"));
        assertThat(svc.desiredStatus()).isEqualTo("run");
    }

    @Test
    void structuralValidationNamesTheField() {
        TaskSpec t = RunnerHarness.task("t", Map.of());
        assertThatExceptionOfType(SpecValidationException.class)
                .isThrownBy(() -> AllocSpecs.validateStructure(RunnerHarness.alloc("x", "cron", null, t)))
                .satisfies(e -> assertThat(e.field()).isEqualTo("Job.Type"));
        assertThatExceptionOfType(SpecValidationException.class)
                .isThrownBy(() -> AllocSpecs.validateStructure(RunnerHarness.alloc("x", "service", null, t, t)))
                .withMessage("Duplicate task name \"t\"");
        assertThatExceptionOfType(SpecValidationException.class)
                .isThrownBy(() -> AllocSpecs.validateStructure(RunnerHarness.alloc("x", "service", null,
                        RunnerHarness.leader(t), RunnerHarness.leader(RunnerHarness.task("u", Map.of())))))
                .withMessage("Only one task may be marked as leader");
        AllocationSpec badPolicy = AllocSpecs.withDefaults(RunnerHarness.alloc("x", "service",
                new RestartPolicySpec(0, null, null, "delay"), t), Duration.ofSeconds(30));
        assertThatExceptionOfType(SpecValidationException.class).isThrownBy(() -> AllocSpecs.validatePolicies(badPolicy))
                .satisfies(e -> assertThat(e.field()).isEqualTo("Job.TaskGroups[web].Tasks[t].RestartPolicy.Attempts"));
    }

    /**
     * Admission writes allocated resources with absent parts ({@code "Networks": null}, as Nomad's JSON does); a stop or
     * update that resubmits them must pass the input checks, which refuse nulls only inside free-form maps and lists.
     */
    @Test
    void allocatedResourcesWithAbsentPartsPassTheInputChecks() {
        TaskSpec t = RunnerHarness.task("t", Map.of());
        AllocationSpec admitted = RunnerHarness.alloc("x", "service", null, t).withAllocatedResources(
                new AllocationSpec.AllocatedResources(Map.of("t", new AllocationSpec.AllocatedTaskResources(
                        new AllocationSpec.AllocatedCpu(100, null), Map.of("MemoryMB", 64L), null)), null));
        assertThatCode(() -> AllocSpecs.validateStructure(admitted.withDesiredStatus(AllocationSpec.DESIRED_STOP)))
                .doesNotThrowAnyException();
    }

    /** A user saw PUT /v1/client/allocation/.. accepted: its alloc dir was the data dir (and DELETE would remove it). */
    @Test
    void idsAndTaskNamesThatAreNotPlainPathSegmentsAreRefused() {
        TaskSpec t = RunnerHarness.task("t", Map.of());
        for (String id : List.of("..", ".", "a/b", "a\\b", "x\u0000")) {
            assertThatExceptionOfType(SpecValidationException.class)
                    .isThrownBy(() -> AllocSpecs.validateStructure(RunnerHarness.alloc(id, "service", null, t)))
                    .satisfies(e -> assertThat(e.field()).isEqualTo("ID"));
        }
        for (String name : List.of("..", ".")) {
            assertThatExceptionOfType(SpecValidationException.class)
                    .isThrownBy(() -> AllocSpecs.validateStructure(RunnerHarness.alloc("x", "service", null,
                            RunnerHarness.task(name, Map.of()))))
                    .satisfies(e -> assertThat(e.field()).isEqualTo("Job.TaskGroups[web].Tasks[" + name + "].Name"));
        }
    }

    /**
     * A user's {@code "KillSignal":"SIGNOPE"} was accepted; stopping the allocation then failed on every attempt and the
     * task ran on forever. A non-positive {@code LogConfig} was silently replaced by the defaults. Both are now refused.
     */
    @Test
    void anUnknownKillSignalAndANonPositiveLogConfigAreRefused() throws Exception {
        TaskSpec bad = new TaskSpec("t", "mock_driver", Map.of(), null, null, null, null, "SIGNOPE", null, null, null, null);
        assertThatExceptionOfType(SpecValidationException.class)
                .isThrownBy(() -> AllocSpecs.validateStructure(RunnerHarness.alloc("x", "service", null, bad)))
                .withMessage("Unknown kill signal \"SIGNOPE\"")
                .satisfies(e -> assertThat(e.field()).isEqualTo("Job.TaskGroups[web].Tasks[t].KillSignal"));
        for (String ok : List.of("SIGTERM", "sigusr1", "HUP")) {
            AllocSpecs.validateStructure(RunnerHarness.alloc("x", "service", null,
                    new TaskSpec("t", "mock_driver", Map.of(), null, null, null, null, ok, null, null, null, null)));
        }
        TaskSpec noFiles = new TaskSpec("t", "mock_driver", Map.of(), null, null, null, null, null, null, null, null,
                Map.of("MaxFiles", 0, "MaxFileSizeMB", 10));
        assertThatExceptionOfType(SpecValidationException.class)
                .isThrownBy(() -> AllocSpecs.validateStructure(RunnerHarness.alloc("x", "service", null, noFiles)))
                .withMessage("minimum number of files is 1; got 0")
                .satisfies(e -> assertThat(e.field()).isEqualTo("Job.TaskGroups[web].Tasks[t].LogConfig.MaxFiles"));
        TaskSpec tiny = new TaskSpec("t", "mock_driver", Map.of(), null, null, null, null, null, null, null, null,
                Map.of("MaxFileSizeMB", -1));
        assertThatExceptionOfType(SpecValidationException.class)
                .isThrownBy(() -> AllocSpecs.validateStructure(RunnerHarness.alloc("x", "service", null, tiny)))
                .withMessage("minimum file size is 1MB; got -1")
                .satisfies(e -> assertThat(e.field()).isEqualTo("Job.TaskGroups[web].Tasks[t].LogConfig.MaxFileSizeMB"));
    }
}
