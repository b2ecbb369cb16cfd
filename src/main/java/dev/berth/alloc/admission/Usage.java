package dev.berth.alloc.admission;

import java.util.Collection;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.TaskSpec;

/** CPU (MHz) and memory (MB) that tasks ask for or that the node has allocated. */
public record Usage(long cpuMhz, long memoryMb) {

    public static final Usage NONE = new Usage(0, 0);

    /** What the tasks ask for together, a reserved core counting {@code mhzPerCore}. */
    public static Usage of(Collection<TaskSpec> tasks, long mhzPerCore) {
        long cpu = 0;
        long mem = 0;
        for (TaskSpec t : tasks) {
            cpu += t.cpu() + (t.resources() == null ? 0 : (long) t.resources().coreCount() * mhzPerCore);
            mem += t.memoryMb();
        }
        return new Usage(cpu, mem);
    }

    /** What the tasks ask for together, counting CPU in MHz only. */
    public static Usage of(Collection<TaskSpec> tasks) {
        return of(tasks, 0);
    }

    /** What an admitted allocation holds: each task's allocated CPU shares (its reserved cores' MHz included) and memory. */
    public static Usage held(AllocationSpec spec) {
        long cpu = 0;
        long mem = 0;
        for (TaskSpec t : spec.group().orElseThrow().tasks()) {
            AllocationSpec.AllocatedCpu allocated = spec.allocatedCpu(t.name());
            cpu += allocated != null && allocated.cpuShares() > 0 ? allocated.cpuShares() : t.cpu();
            mem += t.memoryMb();
        }
        return new Usage(cpu, mem);
    }

    public Usage plus(Usage other) {
        return new Usage(cpuMhz + other.cpuMhz, memoryMb + other.memoryMb);
    }
}
