package dev.berth.template.gotmpl;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.berth.template.gotmpl.Node.Arg;
import dev.berth.template.gotmpl.Node.Command;
import dev.berth.template.gotmpl.Node.Pipe;

/**
 * Evaluates pipelines: each command's value is the last argument of the next; a command is a function call or a single
 * operand; fields are map keys. {@code and} and {@code or} evaluate their arguments only as far as needed. A key missing
 * from a map is {@code <no value>}, or an error when the template runs with {@code missingkey=error}.
 */
final class Evaluator {

    private final Scope scope;
    private final Map<String, TemplateFunction> functions;
    private final boolean missingKeyIsError;

    Evaluator(Scope scope, Map<String, TemplateFunction> functions, boolean missingKeyIsError) {
        this.scope = scope;
        this.functions = functions;
        this.missingKeyIsError = missingKeyIsError;
    }

    /** The pipeline's value; with {@code bind}, its declarations and assignments take that value. */
    Object pipe(Object dot, Pipe pipe, boolean bind) {
        Object value = null;
        boolean piped = false;
        for (Command command : pipe.commands()) {
            value = command(dot, command, value, piped);
            piped = true;
        }
        if (bind) {
            for (String variable : pipe.variables()) {
                scope.declareOrAssign(variable, value, pipe.assign());
            }
        }
        return value;
    }

    private Object command(Object dot, Command command, Object finalArg, boolean piped) {
        Arg first = command.args().getFirst();
        if (first instanceof Node.Function f) {
            return call(dot, f.name(), command.args().subList(1, command.args().size()), finalArg, piped);
        }
        if (command.args().size() > 1 || piped) {
            throw new Failure(describe(first), "can't give argument to non-function " + describe(first));
        }
        if (first instanceof Node.Constant c && c.value() == null) {
            throw new Failure("nil", "nil is not a command");
        }
        return arg(dot, first);
    }

    private Object arg(Object dot, Arg arg) {
        return switch (arg) {
            case Node.Dot d -> dot;
            case Node.Field f -> fields(dot, f.names(), describe(arg));
            case Node.Variable v -> fields(scope.get(v.name()), v.fields(), describe(arg));
            case Node.Function f -> call(dot, f.name(), List.of(), null, false);
            case Node.Chain c -> fields(pipe(dot, c.pipe(), false), c.fields(), describe(arg));
            case Node.Constant c -> c.value();
        };
    }

    private Object call(Object dot, String name, List<Arg> argNodes, Object finalArg, boolean piped) {
        if (name.equals("and") || name.equals("or")) {
            return shortCircuit(dot, name, argNodes, finalArg, piped);
        }
        List<Object> args = new ArrayList<>();
        for (Arg a : argNodes) {
            args.add(arg(dot, a));
        }
        if (piped) {
            args.add(finalArg);
        }
        TemplateFunction fn = functions.get(name);
        if (fn == null) {
            throw new Failure(name, "\"" + name + "\" is not a defined function");
        }
        try {
            return fn.apply(args);
        } catch (TemplateFunction.WrongArguments e) {
            throw new Failure(name, "wrong number of args for " + name + ": want " + e.want() + " got " + e.got());
        } catch (Failure e) {
            throw e;
        } catch (Exception e) {
            throw new Failure(name, "error calling " + name + ": " + e.getMessage());
        }
    }

    private Object shortCircuit(Object dot, String name, List<Arg> argNodes, Object finalArg, boolean piped) {
        int count = argNodes.size() + (piped ? 1 : 0);
        if (count < 1) {
            throw new Failure(name, "wrong number of args for " + name + ": want at least 1 got 0");
        }
        boolean wantTrue = name.equals("or");
        Object v = null;
        for (int i = 0; i < count; i++) {
            v = i < argNodes.size() ? arg(dot, argNodes.get(i)) : finalArg;
            if (Values.truth(v) == wantTrue) {
                return v;
            }
        }
        return v;
    }

    /** Follows field names from a value: map keys; a missing key is {@link Values.Missing} or an error. */
    private Object fields(Object from, List<String> names, String at) {
        Object v = from;
        for (String name : names) {
            if (v instanceof Map<?, ?> m) {
                if (m.containsKey(name)) {
                    v = m.get(name);
                } else if (missingKeyIsError) {
                    throw new Failure(at, "map has no entry for key \"" + name + "\"");
                } else {
                    v = Values.Missing.VALUE;
                }
            } else if (v == null || v instanceof Values.Missing) {
                throw new Failure(at, "nil pointer evaluating interface {}." + name);
            } else {
                throw new Failure(at, "can't evaluate field " + name + " in type " + Values.typeName(v));
            }
        }
        return v;
    }

    private static String describe(Arg arg) {
        return switch (arg) {
            case Node.Dot d -> ".";
            case Node.Field f -> "." + String.join(".", f.names());
            case Node.Variable v -> v.name() + (v.fields().isEmpty() ? "" : "." + String.join(".", v.fields()));
            case Node.Function f -> f.name();
            case Node.Chain c -> "(…)" + (c.fields().isEmpty() ? "" : "." + String.join(".", c.fields()));
            case Node.Constant c -> c.value() instanceof String s ? Strings.quote(s) : Values.print(c.value());
        };
    }

    /** An execution error at an operand; the executor adds the template name and line. */
    static final class Failure extends RuntimeException {

        private final String at;

        Failure(String at, String message) {
            super(message, null, false, false);
            this.at = at;
        }

        String at() {
            return at;
        }
    }
}
