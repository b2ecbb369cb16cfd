package dev.berth.alloc.admission;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.SpecValidationException;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.device.AllocatedDevice;
import dev.berth.device.DeviceAllocator;
import dev.berth.fingerprint.HostVolume;
import dev.berth.host.CoreSet;

/**
 * Whether an allocation fits the node, and what it holds while it lives: the host volumes it names, CPU and memory
 * against the node's capacity, reserved cores ({@link CoreAllocator}), ports from the dynamic range, device instances.
 * Callers serialise admissions (one submission at a time).
 */
public final class NodeAdmission {

    private static final Logger log = LoggerFactory.getLogger(NodeAdmission.class);

    private final NodeCapacity capacity;
    private final PortAllocator ports;
    private final DeviceAllocator devices;
    private final Function<String, Optional<HostVolume>> hostVolumes;
    private final CoreAllocator cores;

    /**
     * @param devices     device reservations; null on a node without device support (device requests are then refused)
     * @param hostVolumes the node's host volume of a name, if it has one
     * @param cores       the node's reserved cores ({@code resources { cores = N }})
     */
    public NodeAdmission(NodeCapacity capacity, PortAllocator ports, DeviceAllocator devices,
                         Function<String, Optional<HostVolume>> hostVolumes, CoreAllocator cores) {
        this.capacity = capacity;
        this.ports = ports;
        this.devices = devices;
        this.hostVolumes = hostVolumes;
        this.cores = cores;
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
        List<TaskSpec> tasks = spec.group().orElseThrow().tasks();
        Usage asked = Usage.of(tasks, capacity.mhzPerCore());
        if (allocated.cpuMhz() + asked.cpuMhz() > capacity.cpuMhz()) {
            throw new AdmissionException("cpu", "Resources exhausted on node: cpu (asked " + asked.cpuMhz() + " MHz, "
                    + (capacity.cpuMhz() - allocated.cpuMhz()) + " MHz unallocated)");
        }
        if (allocated.memoryMb() + asked.memoryMb() > capacity.memoryMb()) {
            throw new AdmissionException("memory", "Resources exhausted on node: memory (asked " + asked.memoryMb() + " MB, "
                    + (capacity.memoryMb() - allocated.memoryMb()) + " MB unallocated)");
        }
        Map<String, List<AllocatedDevice>> assigned = DeviceAdmission.assigned(spec);
        Map<String, Integer> coresAsked = new LinkedHashMap<>();
        tasks.forEach(t -> coresAsked.put(t.name(), t.resources() == null ? 0 : t.resources().coreCount()));
        Map<String, CoreSet> reserved = cores.reserve(spec.id(), coresAsked, capacity.reservableCores());
        try {
            AllocationSpec withPorts = ResourceAssignment.assign(spec, ports, reserved, capacity.mhzPerCore());
            return DeviceAdmission.reserve(withPorts, assigned, devices, ports);
        } catch (AdmissionException | RuntimeException e) {
            cores.release(spec.id());
            throw e;
        }
    }

    /**
     * Admits an update of {@code current}: it keeps the ports, devices and cores that were admitted; what it adds (tasks,
     * the growth of resized tasks) must fit ({@link UpdateAdmission}). Returns {@code updated} with the allocation's
     * {@code AllocatedResources}, each resized task's CPU and memory the new ones.
     */
    public AllocationSpec admitUpdate(AllocationSpec current, AllocationSpec updated, Usage allocated)
            throws SpecValidationException, AdmissionException {
        TaskGroupSpec group = updated.group().orElseThrow();
        HostVolumeFit.check(group, hostVolumes);
        UpdateAdmission.check(current.group().orElseThrow(), group, allocated, capacity);
        return updated.withAllocatedResources(ResourceAssignment.resized(current.allocatedResources(), group, capacity.mhzPerCore()));
    }

    /**
     * Agent start: a restored allocation holds its ports again, and the cores its persisted {@code AllocatedResources}
     * name (so no core is handed out twice after a crash).
     *
     * @return cores it held that another allocation holds or that are no longer reservable (empty normally; logged)
     */
    public CoreSet reclaim(AllocationSpec spec) {
        ports.claim(spec.id(), spec.group().orElseThrow().networks());
        spec.group().orElseThrow().tasks().forEach(t -> ports.claim(spec.id(), t.resources() == null ? null : t.resources().networks()));
        Map<String, CoreSet> held = new LinkedHashMap<>();
        for (TaskSpec t : spec.group().orElseThrow().tasks()) {
            AllocationSpec.AllocatedCpu cpu = spec.allocatedCpu(t.name());
            if (cpu != null && !cpu.reservedCores().isEmpty()) {
                held.put(t.name(), CoreSet.of(cpu.reservedCores()));
            }
        }
        CoreSet lost = held.isEmpty() ? CoreSet.EMPTY : cores.claim(spec.id(), held, capacity.reservableCores());
        if (!lost.isEmpty()) {
            log.error("restored allocation cannot hold its reserved cores {} (held by another allocation, or no longer reservable): "
                    + "alloc={}", lost, spec.id());
        }
        return lost;
    }

    /** The allocation's tasks are done: its ports and cores are free again (its devices stay reserved until it is destroyed). */
    public void releasePorts(String allocId) {
        ports.release(allocId);
        cores.release(allocId);
    }

    /** The allocation is gone (or was never stored): ports, cores and devices are free again. */
    public void release(String allocId) {
        ports.release(allocId);
        cores.release(allocId);
        if (devices != null) {
            devices.release(allocId);
        }
    }
}
