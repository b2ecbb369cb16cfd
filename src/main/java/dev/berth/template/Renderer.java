package dev.berth.template;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import dev.berth.alloc.spec.TemplateSpec;
import dev.berth.template.gotmpl.GoTemplate;
import dev.berth.template.gotmpl.TemplateException;
import dev.berth.template.gotmpl.TemplateFunction;

/**
 * Renders one template of a task: its text ({@code data}, or the {@code source} file inside the task's sandbox) in
 * Go's template language with the functions of one node: {@code env} (the task's environment), {@code file} (a file
 * inside the sandbox), the Nomad functions and the text helpers. A function the template names that is none of these is
 * a parse error naming it.
 */
final class Renderer {

    /** The result of one render and what it read. */
    record Rendered(String content, Dependencies dependencies) {
    }

    private final NomadFunctions nomad;
    private final Sandbox sandbox;
    private final Map<String, String> env;

    Renderer(NomadFunctions nomad, Sandbox sandbox, Map<String, String> env) {
        this.nomad = nomad;
        this.sandbox = sandbox;
        this.env = Map.copyOf(env);
    }

    Rendered render(TemplateSpec spec) throws TemplateException, IOException {
        Dependencies deps = new Dependencies();
        Map<String, TemplateFunction> functions = new HashMap<>(TextFunctions.all());
        functions.putAll(nomad.functions(deps));
        functions.put("env", TemplateFunction.fixed(1, a -> env.getOrDefault(String.valueOf(a.getFirst()), "")));
        functions.put("file", TemplateFunction.fixed(1, a -> read(String.valueOf(a.getFirst()))));
        String text = spec.data().isEmpty() ? read(spec.source()) : spec.data();
        String name = spec.destination();
        GoTemplate.Options options = new GoTemplate.Options(spec.leftDelim(), spec.rightDelim(), functions, spec.errMissingKey());
        return new Rendered(GoTemplate.parse(name, text, options).execute(Map.of()), deps);
    }

    private String read(String path) throws IOException {
        Path p = sandbox.resolve(interpolate(path));
        return Files.readString(p, StandardCharsets.UTF_8);
    }

    /** The task's environment in a path: {@code ${NOMAD_TASK_DIR}} and the like. */
    String interpolate(String s) {
        String out = s;
        for (Map.Entry<String, String> e : env.entrySet()) {
            out = out.replace("${" + e.getKey() + "}", e.getValue());
        }
        return out;
    }
}
