package dev.berth.driver;

import java.util.Map;

import dev.berth.host.TaskProcess;

/**
 * The keys the process drivers (raw_exec, exec, docker) share in {@link TaskHandle#driverState()} for where a task runs,
 * read in this one place into a {@link TaskProcess}.
 */
public final class TaskHandles {

    /** The root process ID. */
    public static final String PID = "pid";
    /** The root process's start ticks. */
    public static final String START_TICKS = "start_ticks";
    /** The cgroup (Berth's own name, or an engine's path). */
    public static final String CGROUP = "cgroup";
    /** The version ({@code 1}/{@code 2}) of a cgroup recorded with it. */
    public static final String CGROUP_VERSION = "cgroup_version";

    private TaskHandles() {
    }

    /** The typed view of a handle's common keys; a missing or unreadable value reads as none. */
    public static TaskProcess process(TaskHandle handle) {
        Map<String, String> s = handle.driverState();
        String cgroup = s.get(CGROUP);
        return new TaskProcess(number(s.get(PID)), number(s.get(START_TICKS)), cgroup == null || cgroup.isEmpty() ? null : cgroup,
                (int) number(s.get(CGROUP_VERSION)));
    }

    private static long number(String value) {
        try {
            return value == null ? 0 : Math.max(0, Long.parseLong(value));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
