package dev.berth.host;

/**
 * Where a task's processes are on the host, as the agent outside the driver needs it (stats, device attribution, crash
 * reconciliation): a typed view a driver gives of its handle; the rest of the driver's state stays its own.
 *
 * @param pid           the task's root process; 0 when it has none (an in-process mock task)
 * @param startTicks    the root process's start time (field 22 of {@code /proc/<pid>/stat}); 0 when unknown
 * @param cgroup        the task's cgroup: one of Berth's own (found through {@code CgroupManager}), or one the container
 *                      engine made, given with its {@code cgroupVersion}; null when none
 * @param cgroupVersion 1 or 2 for a cgroup recorded with its version (an engine's, read in place when the agent sees that
 *                      hierarchy); 0 when not recorded
 */
public record TaskProcess(long pid, long startTicks, String cgroup, int cgroupVersion) {

    public static final TaskProcess NONE = new TaskProcess(0, 0, null, 0);

    /** Equal for the same task seen twice (a recycled pid has other start ticks). */
    public String identity() {
        return pid + ":" + startTicks;
    }
}
