package dev.berth.alloc.admission;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.Test;

import dev.berth.alloc.runner.RunnerHarness;
import dev.berth.alloc.spec.AllocSpecs;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.ResourcesSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.host.CoreSet;
import dev.berth.host.cgroup.CpuPartition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Admission of tasks that reserve cores: what an allocation is given, shown and persisted, and what a refusal leaves. */
class NodeAdmissionCoresTest {

    /** Four reservable cores of 2,000 MHz. */
    private final NodeCapacity capacity = new NodeCapacity() {
        @Override
        public long cpuMhz() {
            return 8000;
        }

        @Override
        public long memoryMb() {
            return 4096;
        }

        @Override
        public CoreSet reservableCores() {
            return CoreSet.parse("0-3");
        }

        @Override
        public long mhzPerCore() {
            return 2000;
        }
    };
    private final List<CpuPartition> published = new ArrayList<>();
    private final NodeAdmission admission = new NodeAdmission(capacity, new PortAllocator(20000, 20100, RandomGenerator.getDefault()),
            null, name -> java.util.Optional.empty(), new CoreAllocator(published::add));

    private static AllocationSpec alloc(String id, Integer cpu, int cores) {
        TaskSpec pinned = new TaskSpec("pinned", "exec", Map.of("command", "/bin/true"), null,
                new ResourcesSpec(cpu, 64, null, null, null, null, cores), null, null, null, null, null, null, null);
        TaskSpec plain = new TaskSpec("plain", "exec", Map.of("command", "/bin/true"), null,
                new ResourcesSpec(300, 64, null, null), null, null, null, null, null, null, null);
        return AllocSpecs.withDefaults(RunnerHarness.alloc(id, "service", null, pinned, plain), Duration.ofSeconds(30));
    }

    @Test
    void aTaskReservingCoresGetsThemAndTheirMhzInItsAllocatedResources() throws Exception {
        AllocationSpec admitted = admission.admit(alloc("a1", null, 2), Usage.NONE);

        assertThat(admitted.allocatedCpu("pinned")).isEqualTo(new AllocationSpec.AllocatedCpu(4000, List.of(0, 1)));
        assertThat(admitted.allocatedCpu("plain")).isEqualTo(new AllocationSpec.AllocatedCpu(300, List.of()));
        assertThat(admitted.group().orElseThrow().tasks().getFirst().resources().coreCount())
                .as("the spec keeps its ask").isEqualTo(2);
        assertThat(Usage.held(admitted)).isEqualTo(new Usage(4300, 128));
        assertThat(published.getLast().shared()).isEqualTo(CoreSet.of(2, 3));
    }

    @Test
    void coresCountAgainstTheNodesMhz() {
        Usage busy = new Usage(5000, 0); // 3,000 MHz left: two cores (4,000) do not fit

        assertThatExceptionOfType(AdmissionException.class).isThrownBy(() -> admission.admit(alloc("a1", null, 2), busy))
                .withMessageContaining("Resources exhausted on node: cpu (asked 4300 MHz, 3000 MHz unallocated)");
        assertThat(published).as("nothing reserved").isEmpty();
    }

    @Test
    void moreCoresThanAreFreeIsRefusedAndNothingIsHeld() throws Exception {
        admission.admit(alloc("a1", null, 3), Usage.NONE);

        assertThatExceptionOfType(AdmissionException.class).isThrownBy(() -> admission.admit(alloc("a2", null, 2), Usage.NONE))
                .withMessage("Resources exhausted on node: cores (asked 2, 1 of 4 reservable cores free: 3)");
        admission.releasePorts("a1");
        assertThat(admission.admit(alloc("a2", null, 2), Usage.NONE).allocatedCpu("pinned").reservedCores()).containsExactly(0, 1);
    }

    @Test
    void aRestartReclaimsThePersistedCores() throws Exception {
        AllocationSpec admitted = admission.admit(alloc("a1", null, 2), Usage.NONE);
        NodeAdmission restarted = new NodeAdmission(capacity, new PortAllocator(20000, 20100, RandomGenerator.getDefault()), null, name -> java.util.Optional.empty(),
                new CoreAllocator(published::add));

        assertThat(restarted.reclaim(admitted)).isEqualTo(CoreSet.EMPTY);

        assertThat(restarted.admit(alloc("a2", null, 2), Usage.NONE).allocatedCpu("pinned").reservedCores()).containsExactly(2, 3);
        assertThatExceptionOfType(AdmissionException.class).isThrownBy(() -> restarted.admit(alloc("a3", null, 1), Usage.NONE));
    }

    @Test
    void anUpdateCannotAddATaskThatReservesCores() throws Exception {
        AllocationSpec admitted = admission.admit(alloc("a1", 100, 0), Usage.NONE);
        var current = admitted.group().orElseThrow();
        var added = alloc("a1", null, 1).group().orElseThrow().tasks().getFirst();
        TaskSpec renamed = new TaskSpec("more", added.driver(), added.config(), null, added.resources(), null, null, null, null, null,
                null, null);
        List<TaskSpec> tasks = new ArrayList<>(current.tasks());
        tasks.add(renamed);

        assertThatExceptionOfType(dev.berth.alloc.spec.SpecValidationException.class)
                .isThrownBy(() -> admission.admitUpdate(admitted, withGroup(admitted, current.with(tasks, current.restartPolicy(),
                        current.networks())), Usage.NONE))
                .withMessageContaining("cannot reserve cores");
    }

    private static AllocationSpec withGroup(AllocationSpec spec, dev.berth.alloc.spec.TaskGroupSpec group) {
        return spec.withJob(spec.job().withTaskGroups(List.of(group)));
    }
}
