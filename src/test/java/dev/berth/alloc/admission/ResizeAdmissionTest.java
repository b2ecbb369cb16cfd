package dev.berth.alloc.admission;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.Test;

import dev.berth.alloc.runner.RunnerHarness;
import dev.berth.alloc.spec.AllocSpecs;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.ResourcesSpec;
import dev.berth.alloc.spec.SpecValidationException;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.host.CoreSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** An update that resizes tasks: the growth must fit the node, a shrink gives back, AllocatedResources follow. */
class ResizeAdmissionTest {

    /** 4,000 MHz and 1,024 MB, two reservable cores of 2,000 MHz. */
    private final NodeCapacity capacity = new NodeCapacity() {
        @Override
        public long cpuMhz() {
            return 4000;
        }

        @Override
        public long memoryMb() {
            return 1024;
        }

        @Override
        public CoreSet reservableCores() {
            return CoreSet.parse("0-1");
        }

        @Override
        public long mhzPerCore() {
            return 2000;
        }
    };
    private final NodeAdmission admission = new NodeAdmission(capacity, new PortAllocator(20000, 20100, RandomGenerator.getDefault()),
            null, name -> java.util.Optional.empty(), new CoreAllocator(p -> { }));

    private static AllocationSpec alloc(int cpu, int memory, Integer memoryMax, int cores) {
        TaskSpec web = new TaskSpec("web", "exec", Map.of("command", "/bin/true"), null,
                new ResourcesSpec(cores > 0 ? null : cpu, memory, memoryMax, null, null, null, cores), null, null, null, null, null, null, null);
        return AllocSpecs.withDefaults(RunnerHarness.alloc("a1", "service", null, web), Duration.ofSeconds(30));
    }

    /** The submitted update: {@code next}'s job, the admitted alloc's identity. */
    private static AllocationSpec update(AllocationSpec admitted, AllocationSpec next) {
        return admitted.withJob(next.job()).withAllocModifyIndex(admitted.modifyIndex() + 1);
    }

    @Test
    void aGrowthThatFitsIsAdmittedAndRecordedInAllocatedResources() throws Exception {
        AllocationSpec admitted = admission.admit(alloc(500, 256, null, 0), Usage.NONE);

        AllocationSpec resized = admission.admitUpdate(admitted, update(admitted, alloc(1500, 512, 768, 0)), Usage.held(admitted));

        AllocationSpec.AllocatedTaskResources web = resized.allocatedResources().tasks().get("web");
        assertThat(web.cpu().cpuShares()).isEqualTo(1500);
        assertThat(web.memory()).containsEntry("MemoryMB", 512L).containsEntry("MemoryMaxMB", 768L);
        assertThat(Usage.held(resized)).isEqualTo(new Usage(1500, 512));
    }

    @Test
    void aGrowthBeyondTheNodeIsRefusedWithNomadsText() throws Exception {
        AllocationSpec admitted = admission.admit(alloc(500, 256, null, 0), Usage.NONE);
        Usage others = new Usage(2000, 600);   // another allocation holds these

        assertThatExceptionOfType(AdmissionException.class)
                .isThrownBy(() -> admission.admitUpdate(admitted, update(admitted, alloc(500, 512, null, 0)),
                        others.plus(Usage.held(admitted))))
                .withMessage("Resources exhausted on node: memory (asked 256 MB, 168 MB unallocated)");
        assertThatExceptionOfType(AdmissionException.class)
                .isThrownBy(() -> admission.admitUpdate(admitted, update(admitted, alloc(2100, 256, null, 0)),
                        others.plus(Usage.held(admitted))))
                .withMessage("Resources exhausted on node: cpu (asked 1600 MHz, 1500 MHz unallocated)");
    }

    @Test
    void aShrinkAlwaysFitsAndGivesBack() throws Exception {
        AllocationSpec admitted = admission.admit(alloc(500, 256, null, 0), Usage.NONE);
        Usage full = new Usage(capacity.cpuMhz(), capacity.memoryMb());   // the node is full

        AllocationSpec resized = admission.admitUpdate(admitted, update(admitted, alloc(200, 128, null, 0)), full);

        assertThat(Usage.held(resized)).isEqualTo(new Usage(200, 128));
    }

    @Test
    void reservedCoresCannotChangeButTheirTasksMemoryCan() throws Exception {
        AllocationSpec admitted = admission.admit(alloc(0, 256, null, 1), Usage.NONE);
        List<Integer> cores = admitted.allocatedCpu("web").reservedCores();

        assertThatExceptionOfType(SpecValidationException.class)
                .isThrownBy(() -> admission.admitUpdate(admitted, update(admitted, alloc(0, 256, null, 2)), Usage.held(admitted)))
                .withMessageContaining("cannot change the reserved cores of a task (1 → 2)");
        AllocationSpec resized = admission.admitUpdate(admitted, update(admitted, alloc(0, 512, null, 1)), Usage.held(admitted));
        assertThat(resized.allocatedCpu("web").reservedCores()).isEqualTo(cores);
        assertThat(resized.allocatedCpu("web").cpuShares()).isEqualTo(2000);
        assertThat(resized.allocatedResources().tasks().get("web").memory()).containsEntry("MemoryMB", 512L);
    }
}
