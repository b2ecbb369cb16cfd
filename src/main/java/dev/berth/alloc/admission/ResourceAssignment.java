package dev.berth.alloc.admission;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.NetworkSpec;
import dev.berth.alloc.spec.ResourcesSpec;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;
import dev.berth.host.CoreSet;

/**
 * Assigns ports (group and task networks) and records what was allocated in the alloc's {@code AllocatedResources}: per task
 * its CPU shares and reserved cores, memory and networks.
 */
public final class ResourceAssignment {

    private ResourceAssignment() {
    }

    /** Assigns ports to an allocation whose tasks reserve no cores. */
    public static AllocationSpec assign(AllocationSpec spec, PortAllocator ports) throws AdmissionException {
        return assign(spec, ports, Map.of(), 0);
    }

    /**
     * @param cores      the cores reserved per task (tasks that reserved none are absent)
     * @param mhzPerCore the MHz a reserved core counts as in the task's {@code CpuShares}
     */
    public static AllocationSpec assign(AllocationSpec spec, PortAllocator ports, Map<String, CoreSet> cores, long mhzPerCore)
            throws AdmissionException {
        TaskGroupSpec group = spec.group().orElseThrow();
        List<NetworkSpec> groupNets = null;
        List<TaskSpec> tasks = new ArrayList<>();
        try {
            groupNets = ports.assign(spec.id(), group.networks());
            Map<String, AllocationSpec.AllocatedTaskResources> perTask = new LinkedHashMap<>();
            for (TaskSpec t : group.tasks()) {
                ResourcesSpec r = t.resources();
                List<NetworkSpec> nets = ports.assign(spec.id(), r == null ? null : r.networks());
                ResourcesSpec nr = r == null ? null
                        : new ResourcesSpec(r.cpu(), r.memoryMb(), r.memoryMaxMb(), nets, r.devices(), r.secretsMb(), r.cores());
                tasks.add(t.withResources(nr));
                Map<String, Long> mem = new LinkedHashMap<>();
                mem.put("MemoryMB", (long) t.memoryMb());
                mem.put("MemoryMaxMB", (long) t.memoryMaxMb());
                CoreSet held = cores.getOrDefault(t.name(), CoreSet.EMPTY);
                AllocationSpec.AllocatedCpu cpu = new AllocationSpec.AllocatedCpu(t.cpu() + held.size() * mhzPerCore, held.ids());
                perTask.put(t.name(), new AllocationSpec.AllocatedTaskResources(cpu, mem, nets));
            }
            List<AllocationSpec.AllocatedPort> shared = new ArrayList<>();
            if (groupNets != null) {
                for (NetworkSpec n : groupNets) {
                    for (List<NetworkSpec.PortSpec> list : java.util.Arrays.asList(n.reservedPorts(), n.dynamicPorts())) {
                        if (list != null) {
                            list.forEach(p -> shared.add(new AllocationSpec.AllocatedPort(p.label(), p.value(),
                                    p.to() == null ? 0 : p.to(), "127.0.0.1")));
                        }
                    }
                }
            }
            TaskGroupSpec newGroup = group.with(tasks, group.restartPolicy(), groupNets);
            List<TaskGroupSpec> groups = spec.job().taskGroups().stream().map(g -> g.name().equals(group.name()) ? newGroup : g).toList();
            return spec.withJob(spec.job().withTaskGroups(groups)).withAllocatedResources(new AllocationSpec.AllocatedResources(perTask,
                    new AllocationSpec.AllocatedShared(groupNets, shared.isEmpty() ? null : shared)));
        } catch (AdmissionException e) {
            ports.release(spec.id());
            throw e;
        }
    }

    /**
     * {@code current} with each task's CPU and memory as {@code group} asks now (an in-place resize): {@code CpuShares} the
     * task's CPU plus its reserved cores' MHz, {@code MemoryMB} and {@code MemoryMaxMB}; reserved cores, networks and
     * devices as admitted. Null stays null (an allocation stored before it had any).
     */
    public static AllocationSpec.AllocatedResources resized(AllocationSpec.AllocatedResources current, TaskGroupSpec group,
                                                            long mhzPerCore) {
        if (current == null || current.tasks() == null) {
            return current;
        }
        Map<String, AllocationSpec.AllocatedTaskResources> perTask = new LinkedHashMap<>(current.tasks());
        for (TaskSpec t : group.tasks()) {
            AllocationSpec.AllocatedTaskResources held = perTask.get(t.name());
            if (held == null) {
                continue;
            }
            List<Integer> cores = held.reservedCores();
            Map<String, Long> mem = new LinkedHashMap<>();
            mem.put("MemoryMB", (long) t.memoryMb());
            mem.put("MemoryMaxMB", (long) t.memoryMaxMb());
            AllocationSpec.AllocatedCpu cpu = new AllocationSpec.AllocatedCpu(t.cpu() + cores.size() * mhzPerCore, cores);
            perTask.put(t.name(), new AllocationSpec.AllocatedTaskResources(cpu, mem, held.networks(), held.devices()));
        }
        return new AllocationSpec.AllocatedResources(perTask, current.shared());
    }
}
