package dev.berth.stats;

import java.util.Objects;

/** Memory and CPU of a task, or of one of its processes (Nomad's {@code ResourceUsage} without device stats). */
public record TaskResourceUsage(TaskMemoryStats memory, TaskCpuStats cpu) {

    public static final TaskResourceUsage NONE = new TaskResourceUsage(TaskMemoryStats.NONE, TaskCpuStats.NONE);

    public TaskResourceUsage {
        Objects.requireNonNull(memory, "'memory' must not be null");
        Objects.requireNonNull(cpu, "'cpu' must not be null");
    }

    public TaskResourceUsage plus(TaskResourceUsage other) {
        return new TaskResourceUsage(memory.plus(other.memory), cpu.plus(other.cpu));
    }
}
