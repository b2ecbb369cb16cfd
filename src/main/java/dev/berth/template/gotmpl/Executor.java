package dev.berth.template.gotmpl;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.berth.template.gotmpl.Node.Branch;
import dev.berth.template.gotmpl.Node.Control;

/**
 * Runs a parse tree against data, writing the output: walks the nodes, keeps the variable scopes, ranges over lists,
 * maps (in sorted key order) and integers, and calls the named templates. Pipelines and operands are evaluated by
 * {@link Evaluator}. Errors carry Go's {@code template: <name>:<line>: executing "<name>" …} prefix.
 */
final class Executor {

    private final Map<String, List<Node>> templates;
    private final Evaluator evaluator;
    private final Scope scope = new Scope();
    private String current;
    private int depth;

    Executor(Map<String, List<Node>> templates, Map<String, TemplateFunction> functions, boolean missingKeyIsError) {
        this.templates = templates;
        this.evaluator = new Evaluator(scope, functions, missingKeyIsError);
    }

    void run(String name, Object data, StringBuilder out) throws TemplateException {
        List<Node> root = templates.get(name);
        if (root == null) {
            throw new TemplateException("template: no template \"" + name + "\" associated with template \"" + name + "\"");
        }
        current = name;
        scope.push("$", data);
        walk(root, data, out);
    }

    private void walk(List<Node> nodes, Object dot, StringBuilder out) throws TemplateException {
        for (Node node : nodes) {
            int line = lineOf(node);
            try {
                node(node, dot, out);
            } catch (Evaluator.Failure f) {
                throw new TemplateException("template: " + current + ":" + line + ": executing \"" + current + "\" at <"
                        + f.at() + ">: " + f.getMessage());
            }
        }
    }

    private void node(Node node, Object dot, StringBuilder out) throws TemplateException {
        switch (node) {
            case Node.Text t -> out.append(t.text());
            case Node.Action a -> {
                Object v = evaluator.pipe(dot, a.pipe(), true);
                if (a.pipe().variables().isEmpty()) {
                    out.append(Values.print(v));
                }
            }
            case Branch b -> branch(b, dot, out);
            case Node.Call c -> call(c, dot, out);
            case Node.LoopJump j -> throw j.isBreak() ? LoopSignal.BREAK : LoopSignal.CONTINUE;
        }
    }

    private void branch(Branch b, Object dot, StringBuilder out) throws TemplateException {
        int mark = scope.mark();
        try {
            Object v = evaluator.pipe(dot, b.pipe(), b.control() != Control.RANGE);
            if (b.control() == Control.RANGE) {
                range(b, v, dot, out);
            } else if (Values.truth(v)) {
                walk(b.body(), b.control() == Control.WITH ? v : dot, out);
            } else {
                walk(b.elseBody(), dot, out);
            }
        } finally {
            scope.reset(mark);
        }
    }

    private void range(Branch b, Object v, Object dot, StringBuilder out) throws TemplateException {
        List<Object[]> items = new ArrayList<>();
        switch (v) {
            case null -> { }
            case Values.Missing m -> { }
            case List<?> list -> {
                for (int i = 0; i < list.size(); i++) {
                    items.add(new Object[] {(long) i, list.get(i)});
                }
            }
            case Map<?, ?> map -> Values.sorted(map).forEach((k, e) -> items.add(new Object[] {k, e}));
            case Long n -> {
                for (long i = 0; i < n; i++) {
                    items.add(new Object[] {i, i});
                }
            }
            case Integer n -> {
                for (long i = 0; i < n; i++) {
                    items.add(new Object[] {i, i});
                }
            }
            default -> throw new Evaluator.Failure("range", "range can't iterate over " + Values.print(v));
        }
        if (items.isEmpty()) {
            walk(b.elseBody(), dot, out);
            return;
        }
        List<String> vars = b.pipe().variables();
        for (Object[] item : items) {
            int mark = scope.mark();
            if (vars.size() == 1) {
                scope.declareOrAssign(vars.get(0), item[1], b.pipe().assign());
            } else if (vars.size() == 2) {
                scope.declareOrAssign(vars.get(0), item[0], b.pipe().assign());
                scope.declareOrAssign(vars.get(1), item[1], b.pipe().assign());
            }
            try {
                walk(b.body(), item[1], out);
            } catch (LoopSignal s) {
                if (s == LoopSignal.BREAK) {
                    break;
                }
            } finally {
                scope.reset(mark);
            }
        }
    }

    private void call(Node.Call c, Object dot, StringBuilder out) throws TemplateException {
        List<Node> body = templates.get(c.name());
        if (body == null) {
            throw new TemplateException("template: " + current + ":" + c.line() + ": executing \"" + current
                    + "\" at <{{template \"" + c.name() + "\"}}>: template \"" + c.name() + "\" not defined");
        }
        if (++depth > 10000) {
            throw new TemplateException("template: " + current + ":" + c.line() + ": exceeded maximum template depth (100000)");
        }
        Object newDot = c.pipe() == null ? null : evaluator.pipe(dot, c.pipe(), false);
        String caller = current;
        List<Scope.Entry> saved = scope.replace("$", newDot);
        current = c.name();
        try {
            walk(body, newDot, out);
        } finally {
            current = caller;
            scope.restore(saved);
            depth--;
        }
    }

    private static int lineOf(Node node) {
        return switch (node) {
            case Node.Action a -> a.line();
            case Branch b -> b.line();
            case Node.Call c -> c.line();
            case Node.LoopJump j -> j.line();
            case Node.Text t -> 0;
        };
    }

    /** {@code break} and {@code continue}: unwinds to the innermost range. */
    private static final class LoopSignal extends RuntimeException {

        static final LoopSignal BREAK = new LoopSignal();
        static final LoopSignal CONTINUE = new LoopSignal();

        private LoopSignal() {
            super(null, null, false, false);
        }
    }
}
