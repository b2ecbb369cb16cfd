package dev.berth.job.hcl;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.berth.job.hcl.syntax.Diagnostic;
import dev.berth.job.hcl.syntax.Hcl;

/**
 * Checks a parsed jobspec against {@link JobspecSchema} and gives every problem as Nomad's HCL decoder words it
 * ({@code Unsupported block type}, {@code Unsupported argument} with its "Did you mean" suggestion, {@code Missing required
 * argument}, {@code Missing name for job}, {@code Duplicate … block}, {@code Unsuitable value type}), plus a refusal for
 * what Nomad accepts and Berth does not run. An empty list means the jobspec's shape is one Berth runs as written.
 */
final class SchemaCheck {

    /** Blocks that may appear more than once in their parent (slices in Nomad's structs); any other block appears once. */
    private static final Set<String> REPEATABLE = Set.of("constraint", "group", "task", "network", "service", "check", "port", "action", "artifact", "template", "volume",
            "volume_mount",
            "variable", "validation", "locals", "variables");

    private final String file;
    private final List<Diagnostic> problems = new ArrayList<>();

    private SchemaCheck(String file) {
        this.file = file;
    }

    static List<Diagnostic> check(Hcl.Body root, String file) {
        SchemaCheck c = new SchemaCheck(file);
        c.body(root, JobspecSchema.file());
        List<Hcl.Block> jobs = root.blocks().stream().filter((b) -> b.type().equals("job")).toList();
        if (jobs.isEmpty() && c.problems.isEmpty()) {
            c.problems.add(Diagnostic.unplaced("Missing job block", "A job block is required"));
        }
        return List.copyOf(c.problems);
    }

    private void body(Hcl.Body body, BlockSpec spec) {
        for (Hcl.Attribute a : body.attributes()) {
            attribute(a, spec, body);
        }
        Map<String, Hcl.Block> first = new HashMap<>();
        for (Hcl.Block b : body.blocks()) {
            if (spec.anyArguments()) {
                if (!spec.anyBlocks()) {
                    add(b.typeRange(), "Unexpected \"" + b.type() + "\" block", "Blocks are not allowed here.");
                }
                continue;
            }
            Hcl.Block earlier = first.putIfAbsent(b.type(), b);
            if (earlier != null && !REPEATABLE.contains(b.type()) && spec.blocks().containsKey(b.type())) {
                duplicate(b, earlier);
                continue;
            }
            block(b, spec);
        }
        if (!spec.anyArguments()) {
            for (String r : spec.required()) {
                if (body.attributes().stream().noneMatch((a) -> a.name().equals(r))) {
                    add(body.open().start(), "Missing required argument", "The argument \"" + r + "\" is required, but no definition was found.");
                }
            }
        }
    }

    private void duplicate(Hcl.Block b, Hcl.Block earlier) {
        if (b.type().equals("job")) {
            add(b.defRange(), "Duplicate job block", "Only one block of type \"job\" is allowed. Previous definition was at "
                    + at(earlier.defRange()) + ".");
        } else {
            add(b.defRange(), "Duplicate " + b.type() + " block", "Only one " + b.type() + " block is allowed. Another was defined at "
                    + at(earlier.defRange()) + ".");
        }
    }

    private void attribute(Hcl.Attribute a, BlockSpec spec, Hcl.Body body) {
        if (spec.anyArguments()) {
            return;
        }
        if (spec.refusals().containsKey(a.name())) {
            refuse(a.nameRange(), "argument", a.name(), spec.refusals().get(a.name()));
        } else if (spec.arguments().containsKey(a.name())) {
            ValueCheck.check(a, spec.arguments().get(a.name())).ifPresent((d) -> add(d.at(), d.summary(), d.detail()));
        } else {
            Set<String> candidates = new LinkedHashSet<>(spec.arguments().keySet());
            body.attributes().forEach((other) -> candidates.remove(other.name()));
            String suggestion = Suggestions.closest(a.name(), candidates);
            String hint = suggestion != null ? " Did you mean \"" + suggestion + "\"?"
                    : spec.blocks().containsKey(a.name()) ? " Did you mean to define a block of type \"" + a.name() + "\"?" : "";
            add(a.nameRange(), "Unsupported argument", "An argument named \"" + a.name() + "\" is not expected here." + hint);
        }
    }

    private void block(Hcl.Block b, BlockSpec spec) {
        BlockSpec child = spec.blocks().get(b.type());
        if (child == null) {
            if (b.type().equals("dynamic")) {
                refuse(b.typeRange(), "block", "dynamic", JobspecSchema.NOT_YET);
            } else if (spec.refusals().containsKey(b.type())) {
                refuse(b.typeRange(), "block", b.type(), spec.refusals().get(b.type()));
            } else {
                String suggestion = Suggestions.closest(b.type(), spec.blocks().keySet());
                String hint = suggestion != null ? " Did you mean \"" + suggestion + "\"?"
                        : spec.arguments().containsKey(b.type()) ? " Did you mean to define argument \"" + b.type()
                                + "\"? If so, use the equals sign to assign it a value." : "";
                add(b.typeRange(), "Unsupported block type", "Blocks of type \"" + b.type() + "\" are not expected here." + hint);
            }
            return;
        }
        List<String> names = child.labels();
        if (b.labels().size() > names.size()) {
            Diagnostic.Range extra = b.labelRanges().get(names.size());
            add(extra, "Extraneous label for " + b.type(), names.isEmpty() ? "No labels are expected for " + b.type() + " blocks."
                    : "Only " + names.size() + " labels (" + String.join(", ", names) + ") are expected for " + b.type() + " blocks.");
            return;
        }
        if (b.labels().size() < names.size()) {
            add(b.body().open(), "Missing " + names.get(b.labels().size()) + " for " + b.type(), "All " + b.type() + " blocks must have "
                    + names.size() + " labels (" + String.join(", ", names) + ").");
            return;
        }
        body(b.body(), child);
    }

    private void refuse(Diagnostic.Range at, String what, String name, String reason) {
        add(at, "Not supported by Berth", "The \"" + name + "\" " + what + " is valid in Nomad, but " + reason
                + "; Berth refuses the job rather than run it without it.");
    }

    private String at(Diagnostic.Range r) {
        return new Diagnostic(this.file, r, "", "").rangeText();
    }

    private void add(Diagnostic.Range at, String summary, String detail) {
        this.problems.add(new Diagnostic(this.file, at, summary, detail));
    }
}
