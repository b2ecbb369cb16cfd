package dev.berth.alloc.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.spec.AllocSpecs;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.JobSpec;
import dev.berth.alloc.spec.ResourcesSpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.task.TaskEvent;
import dev.berth.config.NodeIdentity;
import dev.berth.config.Sleeper;
import dev.berth.driver.TaskDriver;
import dev.berth.driver.exec.ExecDriver;
import dev.berth.driver.rawexec.RawExecDriver;
import dev.berth.driver.rawexec.TaskOutputs;
import dev.berth.host.cgroup.CgroupManager;
import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.host.cgroup.HostCgroups;
import dev.berth.host.cgroup.TaskCgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * In-place resize on real processes and this host's real cgroups (v1 here, v2 in the VM of {@code .ci/v2-vm.sh}): an
 * alloc update that only changes a running task's CPU and memory rewrites its cgroup and the process keeps its pid; a new
 * memory limit below what the task uses is refused before the kernel is asked, and the task is restarted with the new
 * size instead (a new pid), its {@code Restart Signaled} event saying why.
 */
class ResizeKernelTest {

    private static final long MB = 1024 * 1024;

    @TempDir
    Path dir;
    CgroupManager cgroups;
    RawExecDriver rawExec;
    ExecDriver exec;
    RunnerHarness h;

    @BeforeEach
    void setUp() {
        cgroups = HostCgroups.manager(new NodeIdentity(UUID.randomUUID().toString()));
        rawExec = new RawExecDriver(true, Clock.systemUTC(), dir.resolve("exit"),
                new ScheduledThreadPoolExecutor(1, Thread.ofVirtual().name("test-resize-", 0).factory()), Duration.ofMillis(50),
                TaskOutputs.APPEND_TO_FILES, cgroups, true);
        exec = new ExecDriver(true, rawExec, cgroups, 4096, 2000);
    }

    @AfterEach
    void tearDown() throws Exception {
        if (h != null) {
            h.close();
        }
        exec.close();
        cgroups.removeParentIfEmpty();
    }

    @Test
    void anExecTaskKeepsItsPidAndItsCgroupTakesTheNewSize() throws Exception {
        AllocationSpec v1 = alloc("exec", List.of("-c", "exec sleep 600"), 100, 64, null);
        AllocRunner r = running(exec, v1);
        long pid = pid(v1);
        TaskCgroup cgroup = cgroupOf(v1);
        assertThat(HostCgroups.memoryLimit(cgroup)).isEqualTo(64 * MB);

        r.update(next(v1, 500, 96, 128));

        await().atMost(Duration.ofSeconds(30)).until(() -> types(r).contains(TaskEvent.RESIZED));
        assertThat(pid(v1)).isEqualTo(pid);
        assertThat(HostCgroups.isMember(pid, cgroup.name())).isTrue();
        assertThat(HostCgroups.memoryLimit(cgroup)).isEqualTo(128 * MB);
        assertThat(HostCgroups.cpuWeight(cgroup)).isEqualTo(HostCgroups.expectedCpuWeight(cgroup, 500));
        if (cgroup.version() == CgroupVersion.V2) {   // memory 96 MB is the reservation below memory_max 128 MB
            assertThat(read(cgroup, "memory.low")).isEqualTo(Long.toString(96 * MB));
            assertThat(read(cgroup, "memory.high")).isEqualTo(Long.toString((96 * MB + (long) (0.9 * 32 * MB)) / 4096 * 4096));
        } else {
            assertThat(read(cgroup, "memory.soft_limit_in_bytes")).isEqualTo(Long.toString(96 * MB));
        }
        TaskEvent resized = event(r, TaskEvent.RESIZED);
        assertThat(resized.details()).containsEntry("old_cpu", "100").containsEntry("new_cpu", "500")
                .containsEntry("old_memory_mb", "64").containsEntry("new_memory_mb", "96")
                .containsEntry("old_memory_max_mb", "0").containsEntry("new_memory_max_mb", "128");
        assertThat(resized.displayMessage()).isEqualTo("Task resized in place from cpu=100MHz memory=64MB memory_max=0MB cores=0"
                + " to cpu=500MHz memory=96MB memory_max=128MB cores=0");

        r.update(next(next(v1, 500, 96, 128), 200, 48, null));   // and back down, below the old soft limit

        await().atMost(Duration.ofSeconds(30)).until(() -> count(r, TaskEvent.RESIZED) == 2);
        assertThat(pid(v1)).isEqualTo(pid);
        assertThat(HostCgroups.memoryLimit(cgroup)).isEqualTo(48 * MB);
        assertThat(read(cgroup, cgroup.version() == CgroupVersion.V2 ? "memory.high" : "memory.soft_limit_in_bytes"))
                .isIn("max", "9223372036854771712");   // v2 none, v1 unlimited
        assertThat(types(r)).doesNotContain(TaskEvent.TERMINATED, TaskEvent.RESTART_SIGNALED);
    }

    @Test
    void aRawExecTaskKeepsItsPid() throws Exception {
        AllocationSpec v1 = alloc("raw_exec", List.of("-c", "exec sleep 600"), 100, 64, null);
        AllocRunner r = running(rawExec, v1);
        long pid = pid(v1);

        r.update(next(v1, 300, 256, null));

        await().atMost(Duration.ofSeconds(30)).until(() -> types(r).contains(TaskEvent.RESIZED));
        assertThat(pid(v1)).isEqualTo(pid);
        assertThat(event(r, TaskEvent.RESIZED).details()).containsEntry("new_cpu", "300").containsEntry("new_memory_mb", "256");
        assertThat(r.latestSpec().group().orElseThrow().tasks().getFirst().memoryMb()).isEqualTo(256);
        // raw_exec sets no limit: its cgroup (for stats and cores) stays unlimited
        TaskCgroup cgroup = cgroupOf(v1);
        assertThat(read(cgroup, cgroup.version() == CgroupVersion.V2 ? "memory.max" : "memory.limit_in_bytes"))
                .isIn("max", "9223372036854771712");
        assertThat(types(r)).doesNotContain(TaskEvent.TERMINATED, TaskEvent.RESTART_SIGNALED);
    }

    @Test
    void aShrinkBelowWhatTheTaskUsesRestartsItWithTheNewSize() throws Exception {
        // the first run holds 40 MB (a shell variable) and marks that it did; the run after the restart holds nothing
        Path marker = dir.resolve("held");
        String script = "if [ ! -e " + marker + " ]; then touch " + marker + "; x=$(head -c 41943040 /dev/zero | tr '\\0' a); fi; sleep 600";
        AllocationSpec v1 = alloc("exec", List.of("-c", script), 100, 128, null);
        AllocRunner r = running(exec, v1);
        long pid = pid(v1);
        TaskCgroup cgroup = cgroupOf(v1);
        await().atMost(Duration.ofSeconds(30)).until(() -> dev.berth.host.cgroup.CgroupResize.workingSet(cgroup) > 40 * MB);

        r.update(next(v1, 100, 24, null));

        await().atMost(Duration.ofSeconds(60)).until(() -> count(r, TaskEvent.STARTED) == 2 && r.taskStates().get("t").running());
        TaskEvent restart = event(r, TaskEvent.RESTART_SIGNALED);
        assertThat(restart.detail("resize_refused")).startsWith("the new memory limit 24 MB is below the task's current use ");
        assertThat(restart.displayMessage()).startsWith("Restarting to resize from cpu=100MHz memory=128MB memory_max=0MB cores=0"
                + " to cpu=100MHz memory=24MB memory_max=0MB cores=0: the new memory limit 24 MB is below");
        assertThat(types(r)).doesNotContain(TaskEvent.RESIZED);
        long restarted = pid(v1);
        assertThat(restarted).isNotEqualTo(pid);
        assertThat(HostCgroups.memoryLimit(cgroupOf(v1))).isEqualTo(24 * MB);
    }

    AllocRunner running(TaskDriver driver, AllocationSpec spec) {
        h = new RunnerHarness(dir.resolve("allocs"), driver, Sleeper.system());
        AllocRunner r = h.runner(spec);
        r.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> r.taskStates().get("t").running());
        return r;
    }

    static AllocationSpec alloc(String driver, List<String> args, int cpu, int memory, Integer memoryMax) {
        TaskSpec t = new TaskSpec("t", driver, Map.of("command", "/bin/sh", "args", args), null,
                new ResourcesSpec(cpu, memory, memoryMax, null), null, null, null, false, null, null, null);
        TaskGroupSpec group = new TaskGroupSpec("g", 1, List.of(t), null, null, null, null);
        JobSpec job = new JobSpec("j", "j", "service", "default", null, null, null, List.of(group));
        return AllocSpecs.withDefaults(new AllocationSpec(UUID.randomUUID().toString(), "j.g[0]", "default", "j", job, "g", "run", 1L,
                null, null), Duration.ofSeconds(30));
    }

    /** {@code spec}'s update (the next AllocModifyIndex) that gives task t a new size and changes nothing else. */
    static AllocationSpec next(AllocationSpec spec, int cpu, int memory, Integer memoryMax) {
        TaskGroupSpec g = spec.group().orElseThrow();
        TaskSpec t = g.tasks().getFirst();
        TaskSpec sized = t.withResources(new ResourcesSpec(cpu, memory, memoryMax, null));
        TaskGroupSpec group = g.with(List.of(sized), g.restartPolicy(), g.networks());
        return spec.withJob(spec.job().withTaskGroups(List.of(group))).withAllocModifyIndex(spec.modifyIndex() + 1);
    }

    private long pid(AllocationSpec spec) {
        return Long.parseLong(h.store.taskLocalState(spec.id(), "t").orElseThrow().handle().driverState().get("pid"));
    }

    TaskCgroup cgroupOf(AllocationSpec spec) {
        String name = h.store.taskLocalState(spec.id(), "t").orElseThrow().handle().driverState().get("cgroup");
        return cgroups.find(name).orElseThrow();
    }

    private static String read(TaskCgroup cgroup, String file) throws IOException {
        return Files.readString(cgroup.dir("memory").resolve(file)).strip();
    }

    private static List<String> types(AllocRunner r) {
        return RunnerHarness.types(r.taskStates().get("t"));
    }

    private static long count(AllocRunner r, String type) {
        return types(r).stream().filter(type::equals).count();
    }

    private static TaskEvent event(AllocRunner r, String type) {
        return r.taskStates().get("t").events().stream().filter(e -> e.type().equals(type)).findFirst().orElseThrow();
    }
}
