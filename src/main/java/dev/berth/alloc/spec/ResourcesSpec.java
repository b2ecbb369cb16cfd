package dev.berth.alloc.spec;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import dev.berth.device.DeviceRequest;

/**
 * A task's resource ask: CPU in MHz shares, memory in MB, task-level networks, device requests ({@code Devices}) and the
 * size of its {@code secrets/} tmpfs in MB ({@code SecretsMB}, Nomad's default 1 when unset) and the number of whole
 * cores it reserves ({@code Cores}: the task then runs on those cores alone and no other task runs on them; a task asks
 * for {@code CPU} or {@code Cores}, not both).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ResourcesSpec(
        @JsonProperty("CPU") Integer cpu,
        @JsonProperty("MemoryMB") Integer memoryMb,
        @JsonProperty("MemoryMaxMB") Integer memoryMaxMb,
        @JsonProperty("Networks") List<NetworkSpec> networks,
        @JsonProperty("Devices") List<DeviceRequest> devices,
        @JsonProperty("SecretsMB") Integer secretsMb,
        @JsonProperty("Cores") Integer cores) {

    public ResourcesSpec(Integer cpu, Integer memoryMb, Integer memoryMaxMb, List<NetworkSpec> networks, List<DeviceRequest> devices,
            Integer secretsMb) {
        this(cpu, memoryMb, memoryMaxMb, networks, devices, secretsMb, null);
    }

    public ResourcesSpec(Integer cpu, Integer memoryMb, Integer memoryMaxMb, List<NetworkSpec> networks) {
        this(cpu, memoryMb, memoryMaxMb, networks, null, null, null);
    }

    public ResourcesSpec(Integer cpu, Integer memoryMb, Integer memoryMaxMb, List<NetworkSpec> networks, List<DeviceRequest> devices) {
        this(cpu, memoryMb, memoryMaxMb, networks, devices, null, null);
    }

    /** The number of cores reserved, 0 when none. */
    @JsonIgnore
    public int coreCount() {
        return cores == null ? 0 : cores;
    }

    /** The device requests, never null. */
    @JsonIgnore
    public List<DeviceRequest> deviceRequests() {
        return devices == null ? List.of() : devices;
    }
}
