package dev.berth.alloc.runner;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.fs.AllocDir;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.ResourcesSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.alloc.task.TaskEnvironment;
import dev.berth.alloc.task.TaskRunnerContext;
import dev.berth.driver.TaskConfig;
import dev.berth.host.CoreSet;

import static org.assertj.core.api.Assertions.assertThat;

/** What a task that reserved cores is told (its environment) and what its driver gets (cores and CPU shares). */
class ReservedCoresTaskTest {

    @TempDir
    Path dir;

    private final TaskSpec pinned = new TaskSpec("t", "exec", Map.of(), null, new ResourcesSpec(0, 64, null, null, null, null, 3),
            null, null, null, null, null, null, null);
    private final AllocationSpec alloc = RunnerHarness.alloc("0123456789abcdef", "service", null, pinned)
            .withAllocatedResources(new AllocationSpec.AllocatedResources(Map.of("t", new AllocationSpec.AllocatedTaskResources(
                    new AllocationSpec.AllocatedCpu(6000, List.of(4, 2, 3)), Map.of("MemoryMB", 64L), null)), null));

    @Test
    void theEnvironmentNamesTheCoresAsAnIdSetAndTheirMhzAsTheCpuLimit() {
        var env = TaskEnvironment.build(alloc, alloc.group().orElseThrow(), pinned, new AllocDir(dir, alloc.id()), "dc1", Map.of());

        assertThat(env).containsEntry("NOMAD_CPU_CORES", "2-4").containsEntry("NOMAD_CPU_LIMIT", "6000");
    }

    @Test
    void aTaskWithoutReservedCoresHasNoCoresVariable() {
        TaskSpec plain = new TaskSpec("t", "exec", Map.of(), null, new ResourcesSpec(250, 64, null, null), null, null, null, null, null,
                null, null);
        AllocationSpec shared = RunnerHarness.alloc("0123456789abcdef", "service", null, plain);

        var env = TaskEnvironment.build(shared, shared.group().orElseThrow(), plain, new AllocDir(dir, shared.id()), "dc1", Map.of());

        assertThat(env).doesNotContainKey("NOMAD_CPU_CORES").containsEntry("NOMAD_CPU_LIMIT", "250");
    }

    @Test
    void theDriverGetsTheCoresAndTheirMhzAsCpuShares() {
        var ctx = new TaskRunnerContext(alloc, alloc.group().orElseThrow(), pinned, new AllocDir(dir, alloc.id()), null, List.of(),
                null, null, null, Clock.systemUTC(), null, Duration.ofSeconds(30), null, null, null, null);

        TaskConfig config = ctx.taskConfig(Map.of(), List.of());

        assertThat(config.reservedCores()).isEqualTo(CoreSet.of(2, 3, 4));
        assertThat(config.cpuMhz()).isEqualTo(6000);
    }
}
