package dev.berth.alloc.spec;

import java.time.Duration;
import java.util.List;

/**
 * Validation of a task's templates at submission (Nomad's {@code Template.Validate}, with Nomad's texts): something to
 * render ({@code source} or {@code data}), a destination that stays inside the allocation directory, a known change
 * mode with what it needs (a signal, a script command), signals not combined with {@code env}, a non-negative splay,
 * octal perms and a wait whose min is not above its max.
 */
public final class TemplateSpecs {

    private TemplateSpecs() {
    }

    /** The first problem of the task's templates: {@code Template N validation failed: …}, counted from 1. */
    public static void validate(TaskSpec task, String field) throws SpecValidationException {
        List<TemplateSpec> templates = task.templatesOrEmpty();
        for (int i = 0; i < templates.size(); i++) {
            String problem = problem(templates.get(i));
            if (problem != null) {
                throw new SpecValidationException(field + ".Templates[" + i + "]", "Template " + (i + 1) + " validation failed: " + problem);
            }
        }
    }

    /** Nomad's text for the first problem of one template, or null. */
    static String problem(TemplateSpec t) {
        if (t.source().isEmpty() && t.data().isEmpty()) {
            return "Must specify a source path or have an embedded template";
        }
        if (t.destination().isEmpty()) {
            return "Must specify a destination for the template";
        }
        if (ArtifactSpecs.escapesAllocDir(t.destination())) {
            return "destination escapes allocation directory";
        }
        String mode = modeProblem(t);
        if (mode != null) {
            return mode;
        }
        if (t.splay() < 0) {
            return "Must specify positive splay value";
        }
        if (!t.perms().matches("[0-7]{1,4}")) {
            return "Failed to parse \"" + t.perms() + "\" as octal: strconv.ParseUint: parsing \"" + t.perms() + "\": invalid syntax";
        }
        TemplateSpec.WaitSpec w = t.waitSpec();
        if (w != null && w.min() != null && w.max() != null && w.min() > w.max()) {
            return "wait min " + dev.berth.driver.GoDuration.format(Duration.ofNanos(w.min())) + " is greater than max "
                    + dev.berth.driver.GoDuration.format(Duration.ofNanos(w.max()));
        }
        return null;
    }

    private static String modeProblem(TemplateSpec t) {
        return switch (t.changeMode()) {
            case TemplateSpec.NOOP, TemplateSpec.RESTART -> null;
            case TemplateSpec.SIGNAL -> t.changeSignal().isEmpty() ? "Must specify signal value when change mode is signal"
                    : t.envvars() ? "cannot use signals with env var templates" : null;
            case TemplateSpec.SCRIPT -> t.changeScript() == null
                    ? "must specify change script configuration value when change mode is script"
                    : t.changeScript().command().isEmpty() ? "must specify script path value when change mode is script" : null;
            default -> "Invalid change mode. Must be one of the following: noop, signal, script, restart";
        };
    }
}
