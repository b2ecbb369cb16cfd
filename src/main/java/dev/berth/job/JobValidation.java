package dev.berth.job;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.ArtifactSpecs;
import dev.berth.alloc.spec.TemplateSpecs;
import dev.berth.alloc.spec.JobSpec;
import dev.berth.alloc.spec.ServiceSpecs;
import dev.berth.alloc.spec.SpecValidationException;
import dev.berth.alloc.spec.TaskGroupSpec;
import dev.berth.alloc.spec.TaskSpec;

/** Nomad's {@code Job.Validate} for what Berth runs; errors in Nomad's multierror text. Nothing changes on failure. */
final class JobValidation {

    private static final JsonMapper SPECS = JsonMapper.builder().build();
    private static final Set<String> TYPES = Set.of("service", "batch", "system", "sysbatch");

    private JobValidation() {
    }

    static void validate(ObjectNode job) throws JobException {
        List<String> errors = new ArrayList<>();
        String id = job.path("ID").asString("");
        if (id.isEmpty()) {
            errors.add("Missing job ID");
        } else if (id.contains(" ")) {
            errors.add("Job ID contains a space");
        } else if (id.contains("\u0000")) {
            errors.add("Job ID contains a null character");
        }
        if (job.path("Name").asString("").isEmpty()) {
            errors.add("Missing job name");
        }
        String type = job.path("Type").asString("");
        if (!TYPES.contains(type)) {
            errors.add("Invalid job type: \"" + type + "\"");
        }
        int priority = job.path("Priority").asInt(50);
        if (priority < 1 || priority > 100) {
            errors.add("Job priority must be between [1, 100]");
        }
        JsonNode groups = job.path("TaskGroups");
        if (!groups.isArray() || groups.isEmpty()) {
            errors.add("Missing job task groups");
        }
        Set<String> names = new HashSet<>();
        int i = 0;
        for (JsonNode g : groups) {
            i++;
            String name = g.path("Name").asString("");
            if (name.isEmpty()) {
                errors.add("Job task group " + i + " missing name");
            } else if (!names.add(name)) {
                errors.add("Job task group " + i + " redefines '" + name + "' from group " + i);
            }
            if (g.path("Count").asInt(1) < 0) {
                errors.add("Task group " + name + " validation failed: Task group count can't be negative");
            }
            JsonNode tasks = g.path("Tasks");
            if (!tasks.isArray() || tasks.isEmpty()) {
                errors.add("Task group " + name + " validation failed: Missing tasks for task group");
            }
            Set<String> taskNames = new HashSet<>();
            for (JsonNode t : tasks) {
                String tn = t.path("Name").asString("");
                if (tn.isEmpty()) {
                    errors.add("Task group " + name + " validation failed: Task missing name");
                } else if (!taskNames.add(tn)) {
                    errors.add("Task group " + name + " validation failed: Task " + tn + " redefined");
                }
                if (t.path("Driver").asString("").isEmpty()) {
                    errors.add("Task group " + name + " validation failed: Task " + tn + " validation failed: Missing task driver");
                }
                artifacts(t, name, tn, errors);
            }
            if (!name.isEmpty() && tasks.isArray() && !tasks.isEmpty()) {
                services(g, name, errors);
            }
        }
        if (job.hasNonNull("Periodic") && job.path("Periodic").path("Enabled").asBoolean(true)) {
            if (!"batch".equals(type) && !"sysbatch".equals(type)) {
                errors.add("Periodic can only be used with \"batch\" or \"sysbatch\" scheduler");
            }
            String spec = job.path("Periodic").path("Spec").asString("");
            if (spec.isEmpty() && job.path("Periodic").path("Specs").isEmpty()) {
                errors.add("Periodic job must have a cron spec");
            } else {
                try {
                    PeriodicLauncher.schedule(job);
                } catch (dev.berth.job.cron.CronSchedule.InvalidScheduleException e) {
                    errors.add(e.getMessage());
                }
            }
        }
        if (job.hasNonNull("ParameterizedJob") && !"batch".equals(type) && !"sysbatch".equals(type)) {
            errors.add("Parameterized job can only be used with \"batch\" or \"sysbatch\" scheduler");
        }
        String payload = job.path("ParameterizedJob").path("Payload").asString("optional");
        if (job.hasNonNull("ParameterizedJob") && !List.of("optional", "required", "forbidden").contains(payload)) {
            errors.add("Unknown payload requirement: \"" + payload + "\"");
        }
        UnsupportedFields.check(job, errors);
        report(errors);
    }

    /** The group's and its tasks' services and checks, as a submitted allocation's (the field path, then the text). */
    private static void services(JsonNode group, String name, List<String> errors) {
        boolean any = group.hasNonNull("Services");
        for (JsonNode t : group.path("Tasks")) {
            any |= t.hasNonNull("Services");
        }
        if (!any) {
            return;
        }
        try {
            ServiceSpecs.validate(SPECS.treeToValue(group, TaskGroupSpec.class));
        } catch (SpecValidationException e) {
            errors.add("Task group " + name + " validation failed: " + e.field() + ": " + e.getMessage());
        } catch (RuntimeException e) {
            errors.add("Task group " + name + " validation failed: " + e.getMessage());
        }
    }

    /**
     * The task's artifacts and templates (Nomad's {@code Artifact N validation failed: …} and
     * {@code Template N validation failed: …} inside the task's and the group's texts).
     */
    private static void artifacts(JsonNode task, String group, String name, List<String> errors) {
        if (!task.hasNonNull("Artifacts") && !task.hasNonNull("Templates")) {
            return;
        }
        try {
            TaskSpec spec = SPECS.treeToValue(task, TaskSpec.class);
            ArtifactSpecs.validate(spec, "");
            TemplateSpecs.validate(spec, "");
        } catch (SpecValidationException e) {
            errors.add("Task group " + group + " validation failed: Task " + name + " validation failed: " + e.getMessage());
        } catch (RuntimeException e) {
            errors.add("Task group " + group + " validation failed: Task " + name + " validation failed: " + e.getMessage());
        }
    }

    private static void report(List<String> errors) throws JobException {
        if (!errors.isEmpty()) {
            StringBuilder sb = new StringBuilder(errors.size() == 1 ? "1 error occurred:\n" : errors.size() + " errors occurred:\n");
            errors.forEach(e -> sb.append("\t* ").append(e).append('\n'));
            throw new JobException(JobException.Kind.INVALID, sb.append('\n').toString());
        }
    }

    /**
     * Checks each group as the allocation submission path will (structure and policies, e.g. Nomad's minimum 10 MB of
     * memory), so a job its allocations could never pass is refused at registration instead of waiting blocked forever.
     */
    public static void validateForPlacement(ObjectNode job) throws JobException {
        JsonMapper mapper = JsonMapper.builder().build();
        JobSpec js;
        try {
            js = mapper.treeToValue(job, JobSpec.class);
        } catch (tools.jackson.core.JacksonException e) {
            throw new JobException(JobException.Kind.INVALID, "1 error occurred:\n\t* " + e.getOriginalMessage() + "\n\n");
        }
        for (JsonNode g : job.path("TaskGroups")) {
            String group = g.path("Name").asString();
            AllocationSpec spec = new AllocationSpec("00000000-0000-0000-0000-000000000000", js.id() + "." + group + "[0]",
                    js.namespace(), js.id(), js, group, AllocationSpec.DESIRED_RUN, 1L, null, null);
            try {
                dev.berth.alloc.spec.AllocSpecs.validateStructure(spec);
                dev.berth.alloc.spec.AllocSpecs.validatePolicies(
                        dev.berth.alloc.spec.AllocSpecs.withDefaults(spec, java.time.Duration.ofDays(365)));
            } catch (SpecValidationException e) {
                throw new JobException(JobException.Kind.INVALID, "1 error occurred:\n\t* Task group " + group + " validation failed: "
                        + e.field().replaceFirst("^Job\\.", "") + ": " + e.getMessage() + "\n\n");
            }
        }
    }
}
