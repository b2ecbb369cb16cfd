package dev.berth.template;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.berth.alloc.spec.TemplateSpec;
import dev.berth.template.gotmpl.TemplateException;

/**
 * Renders all templates of one task together: when any of them still waits for a variable, nothing is written (the
 * task must not start, or be told of a change, with half its files); otherwise each destination is written if its
 * content changed, and the {@code env} templates give the task's template environment.
 */
final class TaskTemplates {

    /**
     * @param env          the {@code KEY=value} pairs of the {@code env = true} templates
     * @param dependencies what the renders read; {@link Dependencies#missing()} non-empty means nothing was written
     * @param changed      the templates whose destination got new content
     */
    record Outcome(Map<String, String> env, Dependencies dependencies, List<TemplateSpec> changed) {

        boolean complete() {
            return dependencies.missing().isEmpty();
        }
    }

    private final List<TemplateSpec> specs;
    private final Renderer renderer;
    private final Sandbox sandbox;

    TaskTemplates(List<TemplateSpec> specs, Renderer renderer, Sandbox sandbox) {
        this.specs = List.copyOf(specs);
        this.renderer = renderer;
        this.sandbox = sandbox;
    }

    Outcome renderAll() throws TemplateException, IOException {
        Dependencies all = new Dependencies();
        List<String> contents = new ArrayList<>();
        for (TemplateSpec spec : specs) {
            Renderer.Rendered r = renderer.render(spec);
            all.addAll(r.dependencies());
            contents.add(r.content());
        }
        if (!all.missing().isEmpty()) {
            return new Outcome(Map.of(), all, List.of());
        }
        Map<String, String> env = new LinkedHashMap<>();
        List<TemplateSpec> changed = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            TemplateSpec spec = specs.get(i);
            Path target = sandbox.resolve(renderer.interpolate(spec.destination()));
            if (Destination.write(target, contents.get(i), spec)) {
                changed.add(spec);
            }
            if (spec.envvars()) {
                env.putAll(Destination.envLines(contents.get(i)));
            }
        }
        return new Outcome(env, all, changed);
    }
}
