package dev.berth.alloc.spec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.berth.host.Signals;

/** Nomad's defaults for omitted fields and the structural validation of a submitted allocation. */
public final class AllocSpecs {

    /** Nomad's default task resources. */
    public static final int DEFAULT_CPU = 100;
    public static final int DEFAULT_MEMORY_MB = 300;

    private AllocSpecs() {
    }

    /**
     * Fills defaults: namespace {@code default}, job type {@code service}, desired status {@code run}, restart policy (task
     * over group over the job type's default), KillTimeout 5 s capped by {@code maxKillTimeout}, CPU 100 / memory 300.
     */
    public static AllocationSpec withDefaults(AllocationSpec spec, Duration maxKillTimeout) {
        JobSpec job = spec.job();
        String type = job.type() == null || job.type().isEmpty() ? "service" : job.type();
        String ns = spec.namespace() == null || spec.namespace().isEmpty()
                ? (job.namespace() == null || job.namespace().isEmpty() ? "default" : job.namespace()) : spec.namespace();
        RestartPolicySpec typeDefault = RestartPolicySpec.defaultFor(type);
        List<TaskGroupSpec> groups = new ArrayList<>();
        for (TaskGroupSpec g : job.taskGroups() == null ? List.<TaskGroupSpec>of() : job.taskGroups()) {
            RestartPolicySpec groupPolicy = g.restartPolicy() == null ? typeDefault : g.restartPolicy().mergedOver(typeDefault);
            List<TaskSpec> tasks = new ArrayList<>();
            for (TaskSpec t : g.tasks() == null ? List.<TaskSpec>of() : g.tasks()) {
                RestartPolicySpec policy = t.restartPolicy() == null ? groupPolicy : t.restartPolicy().mergedOver(groupPolicy);
                long kill = t.killTimeout() == null ? Duration.ofSeconds(5).toNanos() : t.killTimeout();
                kill = Math.min(kill, maxKillTimeout.toNanos());
                ResourcesSpec r = t.resources();
                // as Nomad: a task that reserves cores gets no default CPU (its CPU is its cores' MHz)
                boolean reservesCores = r != null && r.cores() != null && r.cores() > 0;
                ResourcesSpec res = new ResourcesSpec(r == null || r.cpu() == null ? (reservesCores ? 0 : DEFAULT_CPU) : r.cpu(),
                        r == null || r.memoryMb() == null ? DEFAULT_MEMORY_MB : r.memoryMb(), r == null ? null : r.memoryMaxMb(),
                        r == null ? null : r.networks(), r == null ? null : r.devices(), r == null ? null : r.secretsMb(),
                        r == null ? null : r.cores());
                tasks.add(t.withDefaults(policy, kill, res));
            }
            groups.add(g.with(tasks, groupPolicy, g.networks()));
        }
        JobSpec newJob = new JobSpec(job.id() == null ? spec.jobId() : job.id(), job.name() == null ? job.id() : job.name(), type, ns,
                job.region(), job.parentId(), job.meta(), groups, job.payload());
        String desired = spec.desiredStatus() == null || spec.desiredStatus().isEmpty() ? AllocationSpec.DESIRED_RUN : spec.desiredStatus();
        return new AllocationSpec(spec.id(), spec.name(), ns, spec.jobId() == null ? newJob.id() : spec.jobId(), newJob,
                spec.taskGroup(), desired, spec.allocModifyIndex(), spec.previousAllocation(), spec.allocatedResources());
    }

    /** Structural checks (before defaults): the first problem, naming the field. */
    public static void validateStructure(AllocationSpec spec) throws SpecValidationException {
        SpecInputChecks.check(spec);
        if (spec.id() == null || spec.id().isBlank()) {
            throw new SpecValidationException("ID", "Missing allocation ID");
        }
        // The ID names the allocation directory: "..", "." or a separator would put it outside <data-dir>/alloc.
        if (!isPathSegment(spec.id())) {
            throw new SpecValidationException("ID", "Invalid allocation ID \"" + spec.id() + "\"");
        }
        if (spec.job() == null) {
            throw new SpecValidationException("Job", "Missing job");
        }
        if (spec.job().type() != null && !spec.job().type().isEmpty() && !JobSpec.TYPES.contains(spec.job().type())) {
            throw new SpecValidationException("Job.Type", "Invalid job type \"" + spec.job().type() + "\"");
        }
        if (spec.desiredStatus() != null && !spec.desiredStatus().isEmpty()
                && !List.of("run", "stop", "evict").contains(spec.desiredStatus())) {
            throw new SpecValidationException("DesiredStatus", "Invalid desired status \"" + spec.desiredStatus() + "\"");
        }
        if (spec.allocModifyIndex() != null && spec.allocModifyIndex() < 0) {
            throw new SpecValidationException("AllocModifyIndex", "AllocModifyIndex must be >= 0");
        }
        if (spec.taskGroup() == null || spec.taskGroup().isEmpty()) {
            throw new SpecValidationException("TaskGroup", "Missing task group");
        }
        TaskGroupSpec group = spec.group().orElseThrow(() -> new SpecValidationException("TaskGroup",
                "Task group \"" + spec.taskGroup() + "\" not found in job"));
        String g = "Job.TaskGroups[" + group.name() + "]";
        if (group.tasks() == null || group.tasks().isEmpty()) {
            throw new SpecValidationException(g + ".Tasks", "Missing tasks for task group " + group.name());
        }
        Set<String> names = new HashSet<>();
        int leaders = 0;
        for (TaskSpec t : group.tasks()) {
            if (t.name() == null || t.name().isBlank()) {
                throw new SpecValidationException(g + ".Tasks.Name", "Missing task name");
            }
            if (!isPathSegment(t.name())) {
                throw new SpecValidationException(g + ".Tasks[" + t.name() + "].Name", "Task name \"" + t.name() + "\" contains invalid characters");
            }
            if (!names.add(t.name())) {
                throw new SpecValidationException(g + ".Tasks[" + t.name() + "].Name", "Duplicate task name \"" + t.name() + "\"");
            }
            String f = g + ".Tasks[" + t.name() + "]";
            if (t.driver() == null || t.driver().isBlank()) {
                throw new SpecValidationException(f + ".Driver", "Missing driver");
            }
            if (t.hook() != null && !List.of("prestart", "poststart", "poststop").contains(t.hook())) {
                throw new SpecValidationException(f + ".Lifecycle.Hook", "Invalid task lifecycle hook \"" + t.hook() + "\"");
            }
            if (t.killTimeout() != null && t.killTimeout() < 0) {
                throw new SpecValidationException(f + ".KillTimeout", "KillTimeout must be a positive value");
            }
            if (t.killSignal() != null && !t.killSignal().isEmpty() && Signals.lookup(t.killSignal()).isEmpty()) {
                // Refused here: an unknown signal would make every stop of the task fail, so it would never be killed.
                throw new SpecValidationException(f + ".KillSignal", "Unknown kill signal \"" + t.killSignal() + "\"");
            }
            validateLogConfig(t.logConfig(), f + ".LogConfig");
            ArtifactSpecs.validate(t, f);
            TemplateSpecs.validate(t, f);
            if (t.resources() != null) {
                if (t.resources().secretsMb() != null && t.resources().secretsMb() < 0) {
                    throw new SpecValidationException(f + ".Resources.SecretsMB", "SecretsMB value (" + t.resources().secretsMb()
                            + ") cannot be negative");
                }
                if (t.resources().cpu() != null && t.resources().cpu() < 1 && t.resources().coreCount() == 0) {
                    throw new SpecValidationException(f + ".Resources.CPU", "Minimum CPU value is 1; got " + t.resources().cpu());
                }
                if (t.resources().memoryMb() != null && t.resources().memoryMb() < 10) {
                    throw new SpecValidationException(f + ".Resources.MemoryMB", "Minimum MemoryMB value is 10; got " + t.resources().memoryMb());
                }
                validateNetworks(t.resources().networks(), f + ".Resources.Networks");
            }
            if (t.isLeader()) {
                leaders++;
            }
        }
        if (leaders > 1) {
            throw new SpecValidationException(g + ".Tasks.Leader", "Only one task may be marked as leader");
        }
        validateNetworks(group.networks(), g + ".Networks");
        ServiceSpecs.validate(group);
        VolumeSpecs.validate(group);
    }

    /** Restart policies after defaults (the tracker's validation). */
    public static void validatePolicies(AllocationSpec spec) throws SpecValidationException {
        TaskGroupSpec group = spec.group().orElseThrow();
        for (TaskSpec t : group.tasks()) {
            List<RestartPolicy.Violation> problems = t.restartPolicy().toPolicy().validate();
            if (!problems.isEmpty()) {
                RestartPolicy.Violation v = problems.getFirst();
                String field = "Job.TaskGroups[" + group.name() + "].Tasks[" + t.name() + "].RestartPolicy."
                        + Character.toUpperCase(v.field().charAt(0)) + v.field().substring(1);
                throw new SpecValidationException(field, v.message());
            }
        }
    }

    /** Nomad's {@code LogConfig.Validate}: at least one file of at least 1 MB (absent keys take the defaults). */
    private static void validateLogConfig(Map<String, Object> logConfig, String field) throws SpecValidationException {
        if (logConfig == null) {
            return;
        }
        if (logConfig.get("MaxFiles") instanceof Number n && n.longValue() < 1) {
            throw new SpecValidationException(field + ".MaxFiles", "minimum number of files is 1; got " + n);
        }
        if (logConfig.get("MaxFileSizeMB") instanceof Number n && n.longValue() < 1) {
            throw new SpecValidationException(field + ".MaxFileSizeMB", "minimum file size is 1MB; got " + n);
        }
    }

    private static void validateNetworks(List<NetworkSpec> networks, String field) throws SpecValidationException {
        if (networks == null) {
            return;
        }
        Set<String> labels = new HashSet<>();
        for (NetworkSpec n : networks) {
            for (NetworkSpec.PortSpec p : concat(n.reservedPorts(), n.dynamicPorts())) {
                if (p.label() == null || p.label().isBlank()) {
                    throw new SpecValidationException(field, "Port label is required");
                }
                if (!labels.add(p.label())) {
                    throw new SpecValidationException(field, "Duplicate port label \"" + p.label() + "\"");
                }
            }
            if (n.reservedPorts() != null) {
                for (NetworkSpec.PortSpec p : n.reservedPorts()) {
                    if (p.value() == null || p.value() < 1 || p.value() > 65535) {
                        throw new SpecValidationException(field + ".ReservedPorts[" + p.label() + "].Value",
                                "Reserved port \"" + p.label() + "\" must be 1..65535, was " + p.value());
                    }
                }
            }
        }
    }

    private static List<NetworkSpec.PortSpec> concat(List<NetworkSpec.PortSpec> a, List<NetworkSpec.PortSpec> b) {
        List<NetworkSpec.PortSpec> all = new ArrayList<>();
        if (a != null) {
            all.addAll(a);
        }
        if (b != null) {
            all.addAll(b);
        }
        return all;
    }

    /** Whether {@code s} can name a directory under the alloc root: one plain path segment of at most 200 characters. */
    public static boolean isPathSegment(String s) {
        return s != null && s.length() <= 200 && s.matches("[A-Za-z0-9_.-]+") && !s.equals(".") && !s.equals("..");
    }
}
