package dev.berth.job.hcl;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.berth.job.hcl.syntax.Diagnostic;
import dev.berth.job.hcl.syntax.Hcl;
import dev.berth.job.hcl.syntax.Parser;
import dev.berth.job.hcl.syntax.SyntaxError;

/**
 * Values for a jobspec's {@code variable} blocks from a variables file (Nomad's {@code Variables}: {@code name = value}
 * lines in HCL): each becomes the variable's default in the text the evaluator reads, and each {@code validation}
 * condition becomes an attribute the evaluator computes ({@link #conditions}), so the same evaluator that runs the
 * jobspec judges it.
 */
final class InputVariables {

    /** A validation to judge after evaluation: the attribute holding its result, its message and where it was declared. */
    record Condition(String key, String variable, String message, Diagnostic.Range declared) {
    }

    private final String text;
    private final List<Condition> conditions;

    private InputVariables(String text, List<Condition> conditions) {
        this.text = text;
        this.conditions = conditions;
    }

    String text() {
        return this.text;
    }

    List<Condition> conditions() {
        return this.conditions;
    }

    static InputVariables apply(String src, Hcl.Body root, String file, String variables) throws SyntaxError, JobspecParser.JobspecException {
        Map<String, String> values = new LinkedHashMap<>();
        if (variables != null && !variables.isBlank()) {
            Hcl.Body vars = Parser.parse(variables, "variables.hcl");
            Map<String, Hcl.Block> declared = new LinkedHashMap<>();
            root.blocks().stream().filter((b) -> b.type().equals("variable") && b.labels().size() == 1).forEach((b) -> declared.put(b.labels().getFirst(), b));
            for (Hcl.Attribute a : vars.attributes()) {
                if (!declared.containsKey(a.name())) {
                    throw new JobspecParser.JobspecException(new Diagnostic("variables.hcl", a.nameRange(), "Undefined variable", "A \"" + a.name()
                            + "\" variable was set but was not declared. Declare it with a variable block in the jobspec.").toString());
                }
                values.put(a.name(), Text.slice(variables, a.value().range()));
            }
        }
        List<Edit> edits = new ArrayList<>();
        List<Condition> conditions = new ArrayList<>();
        StringBuilder extra = new StringBuilder();
        for (Hcl.Block b : root.blocks()) {
            if (!b.type().equals("variable") || b.labels().size() != 1) {
                continue;
            }
            String name = b.labels().getFirst();
            Optional<Hcl.Attribute> dflt = b.body().attributes().stream().filter((a) -> a.name().equals("default")).findFirst();
            if (values.containsKey(name)) {
                edits.add(dflt.map((d) -> new Edit(Text.offset(src, d.value().range().line(), d.value().range().column()),
                        Text.offset(src, d.value().range().endLine(), d.value().range().endColumn()), values.get(name)))
                        .orElseGet(() -> {
                            int at = Text.offset(src, b.body().open().endLine(), b.body().open().endColumn());
                            return new Edit(at, at, "\ndefault = " + values.get(name) + "\n");
                        }));
            }
            for (Hcl.Block v : b.body().blocks()) {
                Optional<Hcl.Attribute> cond = v.body().attributes().stream().filter((a) -> a.name().equals("condition")).findFirst();
                Optional<Hcl.Attribute> msg = v.body().attributes().stream().filter((a) -> a.name().equals("error_message")).findFirst();
                if (v.type().equals("validation") && cond.isPresent() && msg.isPresent()) {
                    String key = "berth_validation_" + conditions.size();
                    extra.append('\n').append(key).append(" = ").append(Text.slice(src, cond.get().value().range())).append('\n');
                    String message = msg.get().value() instanceof Hcl.Text t && t.constant() ? t.text() : Text.slice(src, msg.get().value().range());
                    conditions.add(new Condition(key, name, message, v.defRange()));
                }
            }
        }
        StringBuilder out = new StringBuilder(src);
        edits.stream().sorted(Comparator.comparingInt(Edit::from).reversed()).forEach((e) -> out.replace(e.from(), e.to(), e.text()));
        return new InputVariables(out.append(extra).toString(), List.copyOf(conditions));
    }

    private record Edit(int from, int to, String text) {
    }
}
