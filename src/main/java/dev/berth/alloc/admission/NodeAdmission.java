package dev.berth.alloc.admission;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.SpecValidationException;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.device.AllocatedDevice;
import dev.berth.device.DeviceAllocator;
import dev.berth.fingerprint.HostVolume;

/**
 * Whether an allocation fits the node, and what it holds while it lives: the host volumes it names, CPU and memory
 * against the node's capacity, ports from the dynamic range, device instances. Callers serialise admissions (one submission at a time).
 */
public final class NodeAdmission {

    private final NodeCapacity capacity;
    private final PortAllocator ports;
    private final DeviceAllocator devices;
    private final Function<String, Optional<HostVolume>> hostVolumes;

    /**
     * @param devices     device reservations; null on a node without device support (device requests are then refused)
     * @param hostVolumes the node's host volume of a name, if it has one
     */
    public NodeAdmission(NodeCapacity capacity, PortAllocator ports, DeviceAllocator devices,
                         Function<String, Optional<HostVolume>> hostVolumes) {
        this.capacity = capacity;
        this.ports = ports;
        this.devices = devices;
        this.hostVolumes = hostVolumes;
    }

    public NodeCapacity capacity() {
        return capacity;
    }

    /**
     * Admits a new allocation: its tasks' CPU and memory must fit beside {@code allocated}; then its ports are assigned
     * and its devices reserved. Returns the spec with what was assigned ({@code AllocatedResources}).
     */
    public AllocationSpec admit(AllocationSpec spec, Usage allocated) throws SpecValidationException, AdmissionException {
        HostVolumeFit.check(spec.group().orElseThrow(), hostVolumes);
        Usage asked = Usage.of(spec.group().orElseThrow().tasks());
        if (allocated.cpuMhz() + asked.cpuMhz() > capacity.cpuMhz()) {
            throw new AdmissionException("cpu", "Resources exhausted on node: cpu (asked " + asked.cpuMhz() + " MHz, "
                    + (capacity.cpuMhz() - allocated.cpuMhz()) + " MHz unallocated)");
        }
        if (allocated.memoryMb() + asked.memoryMb() > capacity.memoryMb()) {
            throw new AdmissionException("memory", "Resources exhausted on node: memory (asked " + asked.memoryMb() + " MB, "
                    + (capacity.memoryMb() - allocated.memoryMb()) + " MB unallocated)");
        }
        Map<String, List<AllocatedDevice>> assigned = DeviceAdmission.assigned(spec);
        AllocationSpec withPorts = ResourceAssignment.assign(spec, ports);
        return DeviceAdmission.reserve(withPorts, assigned, devices, ports);
    }

    /** An update keeps what was admitted; only tasks it adds must fit (and may not ask for networks or devices). */
    public void admitUpdate(TaskGroupSpec current, TaskGroupSpec updated, Usage allocated)
            throws SpecValidationException, AdmissionException {
        HostVolumeFit.check(updated, hostVolumes);
        UpdateAdmission.check(current, updated, allocated, capacity);
    }

    /** Agent start: a restored allocation holds its ports again. */
    public void reclaim(AllocationSpec spec) {
        ports.claim(spec.id(), spec.group().orElseThrow().networks());
        spec.group().orElseThrow().tasks().forEach(t -> ports.claim(spec.id(), t.resources() == null ? null : t.resources().networks()));
    }

    /** The allocation's tasks are done: its ports are free again (its devices stay reserved until it is destroyed). */
    public void releasePorts(String allocId) {
        ports.release(allocId);
    }

    /** The allocation is gone (or was never stored): ports and devices are free again. */
    public void release(String allocId) {
        ports.release(allocId);
        if (devices != null) {
            devices.release(allocId);
        }
    }
}
