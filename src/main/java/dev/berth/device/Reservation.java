package dev.berth.device;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What a task needs to use reserved devices (Nomad {@code ContainerReservation}): environment variables, mounts and
 * device nodes, handed to the driver by the devices prestart hook.
 */
public record Reservation(
        @JsonProperty("Envs") Map<String, String> envs,
        @JsonProperty("Mounts") List<Mount> mounts,
        @JsonProperty("Devices") List<DeviceSpec> devices) {

    public static final Reservation EMPTY = new Reservation(Map.of(), List.of(), List.of());

    public Reservation {
        envs = envs == null ? Map.of() : Map.copyOf(envs);
        mounts = mounts == null ? List.of() : List.copyOf(mounts);
        devices = devices == null ? List.of() : List.copyOf(devices);
    }

    /** This reservation followed by {@code other}; on an env clash {@code other} wins, as Nomad's device hook merges. */
    public Reservation merge(Reservation other) {
        Map<String, String> env = new LinkedHashMap<>(envs);
        env.putAll(other.envs);
        List<Mount> allMounts = new ArrayList<>(mounts);
        allMounts.addAll(other.mounts);
        List<DeviceSpec> allDevices = new ArrayList<>(devices);
        allDevices.addAll(other.devices);
        return new Reservation(env, allMounts, allDevices);
    }

    /** A bind mount from the host into the task. */
    public record Mount(
            @JsonProperty("TaskPath") String taskPath,
            @JsonProperty("HostPath") String hostPath,
            @JsonProperty("ReadOnly") boolean readOnly) {
    }

    /** A device node to expose, with cgroup permissions such as {@code rwm}. */
    public record DeviceSpec(
            @JsonProperty("TaskPath") String taskPath,
            @JsonProperty("HostPath") String hostPath,
            @JsonProperty("CgroupPerms") String cgroupPerms) {
    }
}
