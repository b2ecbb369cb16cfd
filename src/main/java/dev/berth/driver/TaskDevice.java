package dev.berth.driver;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * A device node or a bind mount that a device reservation hands to the task's driver. Paths are taken whole: a colon in
 * a path is just a character. Drivers without isolation (raw_exec) ignore them; the task still gets the device env.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "Kind")
@JsonSubTypes({@JsonSubTypes.Type(value = TaskDevice.Node.class, name = "node"), @JsonSubTypes.Type(value = TaskDevice.Mount.class, name = "mount")})
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
