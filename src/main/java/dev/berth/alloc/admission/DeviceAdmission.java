package dev.berth.alloc.admission;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.SpecValidationException;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.device.AllocatedDevice;
import dev.berth.device.DeviceAllocationException;
import dev.berth.device.DeviceAllocator;
import dev.berth.device.DeviceRequest;

/**
 * Device admission for a whole allocation: every task's {@code Resources.Devices} (or the instances the submitter
 * already chose in {@code AllocatedResources.Tasks[task].Devices}) are reserved together or not at all, and the reserved
 * IDs are written back into {@code AllocatedResources.Tasks[task].Devices} so they are reported and persisted.
 */
public final class DeviceAdmission {

    private DeviceAdmission() {
    }

    /**
     * The devices the submitter assigned per task (read before {@link ResourceAssignment} rewrites
     * {@code AllocatedResources}).
     *
     * @throws SpecValidationException when an assignment names a task the group does not have
     */
    public static Map<String, List<AllocatedDevice>> assigned(AllocationSpec spec) throws SpecValidationException {
        Map<String, List<AllocatedDevice>> result = new LinkedHashMap<>();
        TaskGroupSpec group = spec.group().orElseThrow();
        String policy = group.meta() == null ? null : group.meta().get(dev.berth.device.DeviceProperties.ON_UNHEALTHY_META);
        if (policy != null && dev.berth.device.DeviceProperties.OnUnhealthy.parse(policy) == null) {
            throw new SpecValidationException("TaskGroups[" + group.name() + "].Meta[" + dev.berth.device.DeviceProperties.ON_UNHEALTHY_META + "]",
                    "must be one of none, restart, fail, was \"" + policy + "\"");
        }
        if (spec.allocatedResources() == null || spec.allocatedResources().tasks() == null) {
            return result;
        }
        for (var entry : spec.allocatedResources().tasks().entrySet()) {
            List<AllocatedDevice> devices = entry.getValue() == null ? null : entry.getValue().devices();
            if (devices == null || devices.isEmpty()) {
                continue;
            }
            if (group.tasks().stream().noneMatch(t -> t.name().equals(entry.getKey()))) {
                throw new SpecValidationException("AllocatedResources.Tasks[" + entry.getKey() + "].Devices",
                        "Task \"" + entry.getKey() + "\" is not in task group \"" + group.name() + "\"");
            }
            for (AllocatedDevice device : devices) {
                if (device.vendor() == null || device.type() == null || device.name() == null || device.ids().isEmpty()) {
                    throw new SpecValidationException("AllocatedResources.Tasks[" + entry.getKey() + "].Devices",
                            "Vendor, Type, Name and DeviceIDs must be set");
                }
            }
            result.put(entry.getKey(), devices);
        }
        return result;
    }

    /**
     * Reserves the allocation's devices and records them in its {@code AllocatedResources}. On refusal the ports the
     * allocation was given are released too, so nothing of it remains.
     *
     * @param devices the allocator, or null on a node without device support
     * @throws AdmissionException (resource {@code devices}) naming the task and request that cannot be satisfied
     */
    public static AllocationSpec reserve(AllocationSpec spec, Map<String, List<AllocatedDevice>> assigned, DeviceAllocator devices,
                                  PortAllocator ports) throws AdmissionException {
        TaskGroupSpec group = spec.group().orElseThrow();
        Map<String, List<DeviceRequest>> requests = new LinkedHashMap<>();
        for (TaskSpec t : group.tasks()) {
            if (t.resources() != null && !t.resources().deviceRequests().isEmpty()) {
                requests.put(t.name(), t.resources().deviceRequests());
            }
        }
        if (requests.isEmpty() && assigned.isEmpty()) {
            return spec;
        }
        Map<String, List<AllocatedDevice>> reserved;
        try {
            if (devices == null) {
                throw new DeviceAllocationException("device support is not enabled on this node");
            }
            reserved = devices.allocateAll(spec.id(), spec.job().id(), requests, assigned);
        } catch (DeviceAllocationException e) {
            ports.release(spec.id());
            throw new AdmissionException("devices", "Resources exhausted on node: devices (" + e.getMessage() + ")");
        }
        var resources = spec.allocatedResources();
        Map<String, AllocationSpec.AllocatedTaskResources> tasks = new LinkedHashMap<>(resources.tasks());
        reserved.forEach((task, held) -> {
            var r = tasks.get(task);
            tasks.put(task, new AllocationSpec.AllocatedTaskResources(r == null ? null : r.cpu(), r == null ? null : r.memory(),
                    r == null ? null : r.networks(), held.isEmpty() ? null : held));
        });
        return spec.withAllocatedResources(new AllocationSpec.AllocatedResources(tasks, resources.shared()));
    }
}
