package dev.berth.template.gotmpl;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Go's predefined template functions: {@code and or not len index slice print printf println eq ne lt le gt ge}.
 * ({@code and} and {@code or} are evaluated lazily by the {@link Evaluator}; the entries here serve a direct call.)
 */
final class Builtins {

    private Builtins() {
    }

    static Map<String, TemplateFunction> all() {
        Map<String, TemplateFunction> f = new HashMap<>();
        f.put("and", args -> pick(args, false));
        f.put("or", args -> pick(args, true));
        f.put("not", TemplateFunction.fixed(1, args -> !Values.truth(args.getFirst())));
        f.put("len", TemplateFunction.fixed(1, args -> length(args.getFirst())));
        f.put("index", Builtins::index);
        f.put("slice", Builtins::slice);
        f.put("print", GoFormat::sprint);
        f.put("println", GoFormat::sprintln);
        f.put("printf", args -> {
            if (args.isEmpty()) {
                throw new TemplateFunction.WrongArguments("at least 1", 0);
            }
            if (!(args.getFirst() instanceof String format)) {
                throw new IllegalArgumentException("format is " + Values.typeName(args.getFirst()) + ", not string");
            }
            return GoFormat.sprintf(format, args.subList(1, args.size()));
        });
        f.put("eq", Builtins::eq);
        f.put("ne", TemplateFunction.fixed(2, args -> !Comparison.equal(args.get(0), args.get(1))));
        f.put("lt", TemplateFunction.fixed(2, args -> Comparison.order(args.get(0), args.get(1)) < 0));
        f.put("le", TemplateFunction.fixed(2, args -> Comparison.order(args.get(0), args.get(1)) <= 0));
        f.put("gt", TemplateFunction.fixed(2, args -> Comparison.order(args.get(0), args.get(1)) > 0));
        f.put("ge", TemplateFunction.fixed(2, args -> Comparison.order(args.get(0), args.get(1)) >= 0));
        return f;
    }

    private static Object pick(List<Object> args, boolean wantTrue) {
        if (args.isEmpty()) {
            throw new TemplateFunction.WrongArguments("at least 1", 0);
        }
        for (Object v : args) {
            if (Values.truth(v) == wantTrue) {
                return v;
            }
        }
        return args.getLast();
    }

    private static Object eq(List<Object> args) {
        if (args.size() < 2) {
            throw new IllegalArgumentException("missing argument for comparison");
        }
        for (Object other : args.subList(1, args.size())) {
            if (Comparison.equal(args.getFirst(), other)) {
                return true;
            }
        }
        return false;
    }

    static long length(Object v) {
        return switch (v) {
            case String s -> s.getBytes(StandardCharsets.UTF_8).length;
            case Collection<?> c -> c.size();
            case Map<?, ?> m -> m.size();
            case null -> throw new IllegalArgumentException("len of nil pointer");
            default -> throw new IllegalArgumentException("len of type " + Values.typeName(v));
        };
    }

    /** {@code index x 1 2}: successive list indexes or map keys; a missing map key is nil. */
    private static Object index(List<Object> args) {
        if (args.isEmpty()) {
            throw new TemplateFunction.WrongArguments("at least 1", 0);
        }
        Object v = args.getFirst();
        for (Object key : args.subList(1, args.size())) {
            v = switch (v) {
                case List<?> list -> list.get(position(key, list.size()));
                case String s -> (long) s.getBytes(StandardCharsets.UTF_8)[position(key, s.length())] & 0xff;
                case Map<?, ?> m -> m.get(key instanceof Number n && !m.containsKey(key) ? n.toString() : key);
                case null -> throw new IllegalArgumentException("index of untyped nil");
                default -> throw new IllegalArgumentException("can't index item of type " + Values.typeName(v));
            };
        }
        return v;
    }

    /** {@code slice x 1 2}: {@code x[1:2]} of a string or list. */
    private static Object slice(List<Object> args) {
        if (args.isEmpty() || args.size() > 3) {
            throw new TemplateFunction.WrongArguments("1 to 3", args.size());
        }
        Object v = args.getFirst();
        int length = v instanceof String s ? s.length() : v instanceof List<?> l ? l.size() : -1;
        if (length < 0) {
            throw new IllegalArgumentException("can't slice item of type " + Values.typeName(v));
        }
        int from = args.size() > 1 ? position(args.get(1), length + 1) : 0;
        int to = args.size() > 2 ? position(args.get(2), length + 1) : length;
        if (from > to) {
            throw new IllegalArgumentException("invalid slice index: " + from + " > " + to);
        }
        return v instanceof String s ? s.substring(from, to) : List.copyOf(((List<?>) v).subList(from, to));
    }

    private static int position(Object key, int size) {
        if (!Numbers.isInteger(key)) {
            throw new IllegalArgumentException("cannot index slice/array with type " + Values.typeName(key));
        }
        long i = ((Number) key).longValue();
        if (i < 0 || i >= size) {
            throw new IllegalArgumentException("index out of range: " + i);
        }
        return (int) i;
    }
}
