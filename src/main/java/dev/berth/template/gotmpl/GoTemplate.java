package dev.berth.template.gotmpl;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A parsed Go {@code text/template}: the main template and those it defines. Parse once, execute any number of times;
 * executing is thread-safe (each run has its own state).
 *
 * <pre>{@code
 * GoTemplate t = GoTemplate.parse("config", "port={{ .port }}", GoTemplate.Options.DEFAULT);
 * String out = t.execute(Map.of("port", 8080L));
 * }</pre>
 */
public final class GoTemplate {

    /**
     * @param leftDelimiter     the action's left delimiter ({@code {{} when empty)
     * @param rightDelimiter    the action's right delimiter ({@code }}} when empty)
     * @param functions         functions beyond Go's builtins (a builtin of the same name is replaced)
     * @param missingKeyIsError Go's {@code missingkey=error}: a key missing from a map fails the run
     */
    public record Options(String leftDelimiter, String rightDelimiter, Map<String, TemplateFunction> functions,
                          boolean missingKeyIsError) {

        public static final Options DEFAULT = new Options("{{", "}}", Map.of(), false);

        public Options {
            functions = Map.copyOf(functions);
        }
    }

    private final String name;
    private final Map<String, List<Node>> templates;
    private final Map<String, TemplateFunction> functions;
    private final boolean missingKeyIsError;

    private GoTemplate(String name, Map<String, List<Node>> templates, Map<String, TemplateFunction> functions,
                       boolean missingKeyIsError) {
        this.name = name;
        this.templates = templates;
        this.functions = functions;
        this.missingKeyIsError = missingKeyIsError;
    }

    /** Parses {@code text}; a syntax error, an unknown function or an undeclared variable fails here. */
    public static GoTemplate parse(String name, String text, Options options) throws TemplateException {
        Map<String, TemplateFunction> functions = new HashMap<>(Builtins.all());
        functions.putAll(options.functions());
        List<Token> tokens = new Lexer(name, text, options.leftDelimiter(), options.rightDelimiter()).lex();
        Map<String, List<Node>> templates = new LinkedHashMap<>();
        List<Node> root = new Parser(name, tokens, functions.keySet()).parse(templates);
        boolean onlyDefinitions = root.stream().allMatch(n -> n instanceof Node.Text t && t.text().isBlank());
        if (!templates.containsKey(name) || !onlyDefinitions) {
            templates.put(name, root);
        }
        return new GoTemplate(name, Map.copyOf(templates), Map.copyOf(functions), options.missingKeyIsError());
    }

    /** Runs the main template with {@code data} as dot. */
    public String execute(Object data) throws TemplateException {
        StringBuilder out = new StringBuilder();
        new Executor(templates, functions, missingKeyIsError).run(name, data, out);
        return out.toString();
    }
}
