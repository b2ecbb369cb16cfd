package dev.berth.job.hcl;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.bertramlabs.plugins.hcl4j.HCLParser;
import com.bertramlabs.plugins.hcl4j.HCLParserException;

import dev.berth.job.hcl.syntax.Diagnostic;
import dev.berth.job.hcl.syntax.Hcl;
import dev.berth.job.hcl.syntax.Parser;
import dev.berth.job.hcl.syntax.SyntaxError;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns a Nomad HCL2 jobspec into Nomad's job JSON (what {@code nomad job run} sends). The jobspec is first read by
 * Berth's own HCL parser ({@code syntax}), whose every part carries its line and column, and checked against Nomad's
 * jobspec schema ({@link SchemaCheck}): a syntax error, an unknown or misspelt block or argument, a missing required
 * one, a literal of the wrong type, or something Nomad accepts that Berth does not run is refused in Nomad's diagnostic
 * form ({@code input.hcl:4,14-15: Invalid expression; …}), never turned into a partial job. hcl4j then evaluates the
 * checked text (variables, locals, functions; its symbols carry positions, but its parser hands back only values and
 * lets broken input through, so it cannot do the check). Runtime interpolations ({@code ${NOMAD_PORT_http}},
 * {@code ${attr.kernel.name}}…) stay as written for the client to resolve, as Nomad's parser leaves them.
 */
public final class JobspecParser {

    /** Runtime references Nomad's parser leaves unevaluated; hcl4j would otherwise evaluate them to their names. */
    private static final Pattern RUNTIME = Pattern.compile("\\$\\{(?=\\s*(?:NOMAD_|attr\\.|node\\.|meta\\.|env\\[|env\\.|[A-Z]))");
    private static final String HIDE = "\u0001{";
    private static final Pattern POSITION = Pattern.compile("line:? (\\d+),? col(?:umn)?:? (\\d+)");

    private final JsonMapper json = JsonMapper.builder().build();

    /** A jobspec that does not parse: the message, with line and column where the parser gives them. */
    public static class JobspecException extends Exception {
        public JobspecException(String message) {
            super(message);
        }
    }

    /** Nomad's name for a jobspec sent to the API ({@code /v1/jobs/parse}), in the positions of its diagnostics. */
    public static final String API_FILE = "input.hcl";

    public ObjectNode parse(String hcl) throws JobspecException {
        return parse(hcl, API_FILE, "");
    }

    /**
     * Parses {@code hcl} (named {@code file} in diagnostics) with {@code variables}, a variables file's text
     * ({@code name = value} lines) giving values to the jobspec's {@code variable} blocks.
     */
    public ObjectNode parse(String hcl, String file, String variables) throws JobspecException {
        InputVariables input;
        try {
            Hcl.Body tree = Parser.parse(hcl, file);
            List<Diagnostic> problems = SchemaCheck.check(tree, file);
            if (!problems.isEmpty()) {
                throw new JobspecException(String.join("\n", problems.stream().map(Diagnostic::toString).toList()));
            }
            input = InputVariables.apply(hcl, tree, file, variables);
        } catch (SyntaxError e) {
            throw new JobspecException(e.getMessage());
        }
        Map<String, Object> root = evaluate(input.text());
        for (InputVariables.Condition c : input.conditions()) {
            Object ok = root.remove(c.key());
            if (!(ok instanceof Boolean b)) {
                throw new JobspecException(new Diagnostic(file, c.declared(), "Invalid validation condition result", "Berth could not evaluate "
                        + "the condition of this validation rule to true or false.").toString());
            }
            if (!b) {
                throw new JobspecException(new Diagnostic(file, c.declared(), "Invalid value for variable", c.message() + "\n\nThis was checked by "
                        + "the validation rule at " + new Diagnostic(file, c.declared(), "", "").rangeText() + ".").toString());
            }
        }
        return job(root);
    }

    private Map<String, Object> evaluate(String hcl) throws JobspecException {
        try {
            return new HCLParser().parse(oneLineBlocks(RUNTIME.matcher(hcl).replaceAll(Matcher.quoteReplacement(HIDE))));
        } catch (HCLParserException e) {
            throw new JobspecException(position(e.getMessage()));
        } catch (RuntimeException e) {
            Throwable c = e.getCause() != null ? e.getCause() : e;
            throw new JobspecException(position(String.valueOf(c.getMessage())));
        } catch (Exception e) {
            throw new JobspecException(position(String.valueOf(e.getMessage())));
        }
    }

    private ObjectNode job(Map<String, Object> root) throws JobspecException {
        JsonNode tree = json.valueToTree(restore(root));
        JsonNode jobs = tree.path("job");
        if (!jobs.isObject() || jobs.size() != 1) {
            throw new JobspecException("only one \"job\" block is allowed, and one is required");
        }
        String id = jobs.propertyNames().iterator().next();
        return JobspecMapping.job(id, (ObjectNode) jobs.get(id), json);
    }

    /** HCL2's one-attribute blocks on one line ({@code port "http" { static = 8080 }}), which hcl4j does not read, on three. */
    private static final Pattern ONE_LINE_BLOCK = Pattern.compile("(?m)^(\\s*[A-Za-z_][\\w\\-]*(?:\\s+\"[^\"{}]*\")*\\s*)\\{\\s*([A-Za-z_][\\w\\-]*\\s*=[^{}\\n]*?)\\s*}\\s*$");

    static String oneLineBlocks(String hcl) {
        return ONE_LINE_BLOCK.matcher(hcl).replaceAll("$1{\n$2\n}");
    }

    private static String position(String message) {
        Matcher m = POSITION.matcher(message);
        return m.find() ? "input.hcl:" + m.group(1) + "," + m.group(2) + ": " + message : message;
    }

    @SuppressWarnings("unchecked")
    private static Object restore(Object v) {
        if (v instanceof String s) {
            return s.replace(HIDE, "${");
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            ((Map<String, Object>) m).forEach((k, x) -> out.put(k, restore(x)));
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(x -> out.add(restore(x)));
            return out;
        }
        return v;
    }

    static ArrayNode list(JsonMapper json) {
        return json.createArrayNode();
    }
}
