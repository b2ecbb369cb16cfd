package dev.berth.alloc.admission;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import dev.berth.alloc.spec.SpecValidationException;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSize;
import dev.berth.alloc.spec.TaskSpec;

/**
 * Admission of an update of a known allocation. An update keeps the ports and devices admitted at creation, so an added
 * task may not ask for its own networks, devices or reserved cores (400), and a kept task may not change its number of
 * reserved cores (400). What the update adds (the added tasks' CPU and memory, and what resized tasks ask for beyond
 * their old size; a shrink gives back) must fit the node's unallocated capacity on top of what is allocated already
 * (409), as a new allocation's would.
 */
final class UpdateAdmission {

    private UpdateAdmission() {
    }

    /**
     * @param allocated allocated on the node now (the updated alloc's current tasks included)
     */
    static void check(TaskGroupSpec current, TaskGroupSpec updated, Usage allocated, NodeCapacity capacity)
            throws SpecValidationException, AdmissionException {
        Set<String> have = current.tasks().stream().map(TaskSpec::name).collect(Collectors.toSet());
        List<TaskSpec> added = updated.tasks().stream().filter(t -> !have.contains(t.name())).toList();
        long cpu = 0;
        long mem = 0;
        for (TaskSpec t : added) {
            String f = "Job.TaskGroups[" + updated.name() + "].Tasks[" + t.name() + "].Resources";
            if (t.resources() != null && t.resources().networks() != null && !t.resources().networks().isEmpty()) {
                throw new SpecValidationException(f + ".Networks", "A task added by an update cannot have its own networks");
            }
            if (t.resources() != null && t.resources().coreCount() > 0) {
                throw new SpecValidationException(f + ".Cores", "A task added by an update cannot reserve cores");
            }
            if (t.resources() != null && !t.resources().deviceRequests().isEmpty()) {
                throw new SpecValidationException(f + ".Devices", "A task added by an update cannot request devices");
            }
            cpu += t.cpu();
            mem += t.memoryMb();
        }
        for (TaskSpec t : updated.tasks()) {
            TaskSpec before = current.tasks().stream().filter(c -> c.name().equals(t.name())).findFirst().orElse(null);
            if (before == null) {
                continue;
            }
            TaskSize from = TaskSize.of(before);
            TaskSize to = TaskSize.of(t);
            if (from.cores() != to.cores()) {
                throw new SpecValidationException("Job.TaskGroups[" + updated.name() + "].Tasks[" + t.name() + "].Resources.Cores",
                        "An update cannot change the reserved cores of a task (" + from.cores() + " → " + to.cores() + ")");
            }
            cpu += to.cpuMhz() - from.cpuMhz();
            mem += to.memoryMb() - from.memoryMb();
        }
        if (cpu > 0 && allocated.cpuMhz() + cpu > capacity.cpuMhz()) {
            throw new AdmissionException("cpu", "Resources exhausted on node: cpu (asked " + cpu + " MHz, "
                    + (capacity.cpuMhz() - allocated.cpuMhz()) + " MHz unallocated)");
        }
        if (mem > 0 && allocated.memoryMb() + mem > capacity.memoryMb()) {
            throw new AdmissionException("memory", "Resources exhausted on node: memory (asked " + mem + " MB, "
                    + (capacity.memoryMb() - allocated.memoryMb()) + " MB unallocated)");
        }
    }
}
