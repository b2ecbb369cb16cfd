package dev.berth.driver;

/**
 * A device node or a bind mount that a device reservation hands to the task's driver. Paths are taken whole: a colon in
 * a path is just a character. Drivers without isolation (raw_exec) ignore them; the task still gets the device env.
 */
public sealed interface TaskDevice {

    /** The path on the host. */
    String hostPath();

    /** The path inside the task. */
    String taskPath();

    /**
     * A device node for the task's device cgroup / container devices.
     *
     * @param cgroupPerms the cgroup permissions, some of {@code r}, {@code w}, {@code m}
     */
    record Node(String hostPath, String taskPath, String cgroupPerms) implements TaskDevice {
    }

    /** A bind mount, read-only or read-write. */
    record Mount(String hostPath, String taskPath, boolean readOnly) implements TaskDevice {
    }
}
