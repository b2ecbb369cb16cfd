package dev.berth.alloc.spec;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import dev.berth.device.AllocatedDevice;

/**
 * A submitted Nomad {@code Allocation} (the parts Berth runs). Field names are Nomad's. Unknown fields are ignored.
 * Values may be null as submitted; {@link AllocSpecs#withDefaults} fills in Nomad's defaults.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AllocationSpec(
        @JsonProperty("ID") String id,
        @JsonProperty("Name") String name,
        @JsonProperty("Namespace") String namespace,
        @JsonProperty("JobID") String jobId,
        @JsonProperty("Job") JobSpec job,
        @JsonProperty("TaskGroup") String taskGroup,
        @JsonProperty("DesiredStatus") String desiredStatus,
        @JsonProperty("AllocModifyIndex") Long allocModifyIndex,
        @JsonProperty("PreviousAllocation") String previousAllocation,
        @JsonProperty("AllocatedResources") AllocatedResources allocatedResources) {

    public static final String DESIRED_RUN = "run";
    public static final String DESIRED_STOP = "stop";
    public static final String DESIRED_EVICT = "evict";

    /** Nomad's server-terminal check: desired stop or evict. */
    @JsonIgnore
    public boolean desiredTerminal() {
        return DESIRED_STOP.equals(desiredStatus) || DESIRED_EVICT.equals(desiredStatus);
    }

    @JsonIgnore
    public long modifyIndex() {
        return allocModifyIndex == null ? 0 : allocModifyIndex;
    }

    /** The task group this allocation runs, if the job has it. */
    @JsonIgnore
    public Optional<TaskGroupSpec> group() {
        if (job == null || job.taskGroups() == null) {
            return Optional.empty();
        }
        return job.taskGroups().stream().filter(g -> g.name() != null && g.name().equals(taskGroup)).findFirst();
    }

    /** Alloc index parsed from the name {@code job.group[N]} (Nomad's {@code Index()}), 0 when absent. */
    @JsonIgnore
    public int allocIndex() {
        if (name == null) {
            return 0;
        }
        int open = name.lastIndexOf('[');
        int close = name.lastIndexOf(']');
        if (open < 0 || close < open) {
            return 0;
        }
        try {
            return Integer.parseInt(name.substring(open + 1, close));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    public AllocationSpec withId(String newId) {
        return new AllocationSpec(newId, name, namespace, jobId, job, taskGroup, desiredStatus, allocModifyIndex, previousAllocation,
                allocatedResources);
    }

    public AllocationSpec withDesiredStatus(String status) {
        return new AllocationSpec(id, name, namespace, jobId, job, taskGroup, status, allocModifyIndex, previousAllocation,
                allocatedResources);
    }

    public AllocationSpec withAllocModifyIndex(long index) {
        return new AllocationSpec(id, name, namespace, jobId, job, taskGroup, desiredStatus, index, previousAllocation,
                allocatedResources);
    }

    public AllocationSpec withJob(JobSpec newJob) {
        return new AllocationSpec(id, name, namespace, jobId, newJob, taskGroup, desiredStatus, allocModifyIndex,
                previousAllocation, allocatedResources);
    }

    /** The CPU admission gave {@code task} (its MHz shares and reserved cores); null before admission or for a task it never admitted. */
    @JsonIgnore
    public AllocatedCpu allocatedCpu(String task) {
        AllocatedTaskResources r = allocatedResources == null || allocatedResources.tasks() == null ? null
                : allocatedResources.tasks().get(task);
        return r == null ? null : r.cpu();
    }

    public AllocationSpec withAllocatedResources(AllocatedResources resources) {
        return new AllocationSpec(id, name, namespace, jobId, job, taskGroup, desiredStatus, allocModifyIndex,
                previousAllocation, resources);
    }

    /**
     * Nomad's {@code AllocatedResources} (the parts we fill): per-task CPU/memory/devices and the shared ports.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record AllocatedResources(
            @JsonProperty("Tasks") Map<String, AllocatedTaskResources> tasks,
            @JsonProperty("Shared") AllocatedShared shared) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record AllocatedTaskResources(
            @JsonProperty("Cpu") AllocatedCpu cpu,
            @JsonProperty("Memory") Map<String, Long> memory,
            @JsonProperty("Networks") List<NetworkSpec> networks,
            @JsonProperty("Devices") List<AllocatedDevice> devices) {

        public AllocatedTaskResources(AllocatedCpu cpu, Map<String, Long> memory, List<NetworkSpec> networks) {
            this(cpu, memory, networks, null);
        }

        /** The task's reserved cores, empty when it has none. */
        @JsonIgnore
        public List<Integer> reservedCores() {
            return cpu == null || cpu.reservedCores() == null ? List.of() : cpu.reservedCores();
        }
    }

    /**
     * Nomad's {@code AllocatedCpuResources}: the task's CPU in MHz shares, and the IDs of the cores it reserved
     * ({@code ReservedCores}, absent when it reserved none).
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record AllocatedCpu(
            @JsonProperty("CpuShares") long cpuShares,
            @JsonProperty("ReservedCores") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Integer> reservedCores) {

        public AllocatedCpu {
            reservedCores = reservedCores == null ? List.of() : List.copyOf(reservedCores);
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record AllocatedShared(
            @JsonProperty("Networks") List<NetworkSpec> networks,
            @JsonProperty("Ports") List<AllocatedPort> ports) {
    }

    /** One assigned port, Nomad's {@code AllocatedPortMapping}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record AllocatedPort(
            @JsonProperty("Label") String label,
            @JsonProperty("Value") int value,
            @JsonProperty("To") int to,
            @JsonProperty("HostIP") String hostIp) {
    }
}
