package dev.berth.fingerprint;

import java.util.List;

import dev.berth.device.DeviceGroup;

/**
 * What the node offers to allocations (Nomad's {@code NodeResources}). Fingerprinters contribute the parts they
 * measure; {@code null} parts are not known yet.
 *
 * @param cpu            processor capacity, or null before the cpu fingerprinter ran
 * @param memory         memory capacity, or null before the memory fingerprinter ran
 * @param disk           free disk of the alloc dir's file system, or null before the storage fingerprinter ran
 * @param devices        every device group the device plugins report (Nomad's {@code NodeDeviceResource}s); empty
 *                       when there are none
 * @param minDynamicPort lowest dynamic port ({@code berth.client.min-dynamic-port})
 * @param maxDynamicPort highest dynamic port ({@code berth.client.max-dynamic-port})
 */
public record NodeResources(Cpu cpu, Memory memory, Disk disk, List<DeviceGroup> devices, int minDynamicPort,
                            int maxDynamicPort) {

    public NodeResources {
        devices = devices == null ? List.of() : List.copyOf(devices);
    }

    /** Resources before anything was fingerprinted. */
    public NodeResources(int minDynamicPort, int maxDynamicPort) {
        this(null, null, null, List.of(), minDynamicPort, maxDynamicPort);
    }

    /**
     * @param cpuShares          total compute in MHz (cores × frequency)
     * @param totalCpuCores      number of logical cores
     * @param reservableCpuCores IDs of the cores that may be reserved
     */
    public record Cpu(long cpuShares, int totalCpuCores, List<Integer> reservableCpuCores) {
        public Cpu {
            reservableCpuCores = reservableCpuCores == null ? List.of() : List.copyOf(reservableCpuCores);
        }
    }

    /** @param memoryMb total memory in MiB */
    public record Memory(long memoryMb) {
    }

    /** @param diskMb free space in MiB of the file system holding the alloc dir */
    public record Disk(long diskMb) {
    }

    public NodeResources withCpu(Cpu cpu) {
        return new NodeResources(cpu, memory, disk, devices, minDynamicPort, maxDynamicPort);
    }

    public NodeResources withMemory(Memory memory) {
        return new NodeResources(cpu, memory, disk, devices, minDynamicPort, maxDynamicPort);
    }

    public NodeResources withDisk(Disk disk) {
        return new NodeResources(cpu, memory, disk, devices, minDynamicPort, maxDynamicPort);
    }

    public NodeResources withDevices(List<DeviceGroup> devices) {
        return new NodeResources(cpu, memory, disk, devices, minDynamicPort, maxDynamicPort);
    }
}
