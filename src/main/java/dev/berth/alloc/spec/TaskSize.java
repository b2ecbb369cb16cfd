package dev.berth.alloc.spec;

import java.util.Map;

/**
 * The part of a task's resources that Berth can change on a running task (in-place resize): CPU in MHz shares, memory
 * and the memory hard limit in MB, and the number of reserved cores.
 */
public record TaskSize(int cpuMhz, int memoryMb, int memoryMaxMb, int cores) {

    /**
     * Task {@code Meta} key by which a task opts out of in-place resize: the value {@value #RESTART} makes a change of its
     * size replace it as Nomad does. Nomad accepts any meta key and ignores this one.
     */
    public static final String META_KEY = "berth.resize";
    public static final String RESTART = "restart";

    public static TaskSize of(TaskSpec task) {
        return new TaskSize(task.cpu(), task.memoryMb(), task.memoryMaxMb(), task.resources() == null ? 0 : task.resources().coreCount());
    }

    /** Whether the task's meta asks for a replacement instead of an in-place resize. */
    public static boolean optsOut(TaskSpec task) {
        Map<String, String> meta = task.meta();
        return meta != null && RESTART.equalsIgnoreCase(meta.getOrDefault(META_KEY, "").strip());
    }

    /** The memory the kernel enforces: {@code memory_max} when set above {@code memory}, else {@code memory}. */
    public int hardMemoryMb() {
        return Math.max(memoryMb, memoryMaxMb);
    }

    /** {@code cpu=500MHz memory=256MB memory_max=512MB cores=0}, the form task events and logs use. */
    @Override
    public String toString() {
        return "cpu=" + cpuMhz + "MHz memory=" + memoryMb + "MB memory_max=" + memoryMaxMb + "MB cores=" + cores;
    }
}
