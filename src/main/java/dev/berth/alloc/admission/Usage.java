package dev.berth.alloc.admission;

import java.util.Collection;

import dev.berth.alloc.spec.TaskSpec;

/** CPU (MHz) and memory (MB) that tasks ask for or that the node has allocated. */
public record Usage(long cpuMhz, long memoryMb) {

    public static final Usage NONE = new Usage(0, 0);

    /** What the tasks ask for together. */
    public static Usage of(Collection<TaskSpec> tasks) {
        long cpu = 0;
        long mem = 0;
        for (TaskSpec t : tasks) {
            cpu += t.cpu();
            mem += t.memoryMb();
        }
        return new Usage(cpu, mem);
    }

    public Usage plus(Usage other) {
        return new Usage(cpuMhz + other.cpuMhz, memoryMb + other.memoryMb);
    }
}
