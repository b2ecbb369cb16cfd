package dev.berth.template;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import dev.berth.template.gotmpl.TemplateFunction;
import dev.berth.template.gotmpl.Values;

/**
 * consul-template's string, math and collection helpers, with its argument order (the piped value last, so
 * {@code {{ .x | split "," }}} and {@code {{ 10 | subtract 2 }}} read naturally). JSON helpers are in
 * {@link JsonFunctions}.
 */
final class TextFunctions {

    private TextFunctions() {
    }

    static Map<String, TemplateFunction> all() {
        Map<String, TemplateFunction> f = new HashMap<>();
        f.put("toLower", one(s -> s.toLowerCase(Locale.ROOT)));
        f.put("toUpper", one(s -> s.toUpperCase(Locale.ROOT)));
        f.put("toTitle", one(TextFunctions::title));
        f.put("trimSpace", one(String::strip));
        f.put("trim", two((cut, s) -> s.replaceAll("^[" + java.util.regex.Pattern.quote(cut) + "]+|[" + java.util.regex.Pattern.quote(cut) + "]+$", "")));
        f.put("trimPrefix", two((p, s) -> s.startsWith(p) ? s.substring(p.length()) : s));
        f.put("trimSuffix", two((p, s) -> s.endsWith(p) ? s.substring(0, s.length() - p.length()) : s));
        f.put("split", two((sep, s) -> s.isEmpty() ? List.of() : List.<Object>copyOf(Arrays.asList(s.split(java.util.regex.Pattern.quote(sep), -1)))));
        f.put("join", TemplateFunction.fixed(2, a -> list(a.get(1)).stream().map(Values::print).collect(Collectors.joining(text(a.get(0))))));
        f.put("replaceAll", TemplateFunction.fixed(3, a -> text(a.get(2)).replace(text(a.get(0)), text(a.get(1)))));
        f.put("regexReplaceAll", TemplateFunction.fixed(3, a -> text(a.get(2)).replaceAll(text(a.get(0)), text(a.get(1)))));
        f.put("regexMatch", TemplateFunction.fixed(2, a -> java.util.regex.Pattern.compile(text(a.get(0))).matcher(text(a.get(1))).find()));
        f.put("indent", TemplateFunction.fixed(2, a -> indent(integer(a.get(0)), text(a.get(1)))));
        f.put("contains", TemplateFunction.fixed(2, a -> contains(a.get(1), a.get(0))));
        f.put("containsAny", TemplateFunction.fixed(2, a -> list(a.get(0)).stream().anyMatch(x -> contains(a.get(1), x))));
        f.put("containsAll", TemplateFunction.fixed(2, a -> list(a.get(0)).stream().allMatch(x -> contains(a.get(1), x))));
        f.put("parseInt", one(s -> Long.parseLong(s.strip())));
        f.put("parseUint", one(s -> Long.parseUnsignedLong(s.strip())));
        f.put("parseFloat", one(s -> Double.parseDouble(s.strip())));
        f.put("parseBool", one(TextFunctions::bool));
        f.put("add", math((a, b) -> a + b, (a, b) -> a + b));
        f.put("subtract", math((a, b) -> b - a, (a, b) -> b - a));
        f.put("multiply", math((a, b) -> a * b, (a, b) -> a * b));
        f.put("divide", math((a, b) -> b / a, (a, b) -> b / a));
        f.put("modulo", math((a, b) -> b % a, (a, b) -> b % a));
        f.put("minimum", math(Math::min, Math::min));
        f.put("maximum", math(Math::max, Math::max));
        f.putAll(JsonFunctions.all());
        return f;
    }

    private interface StringFn {
        Object apply(String s) throws Exception;
    }

    private interface StringFn2 {
        Object apply(String a, String b) throws Exception;
    }

    private static TemplateFunction one(StringFn fn) {
        return TemplateFunction.fixed(1, a -> fn.apply(text(a.getFirst())));
    }

    private static TemplateFunction two(StringFn2 fn) {
        return TemplateFunction.fixed(2, a -> fn.apply(text(a.get(0)), text(a.get(1))));
    }

    private static TemplateFunction math(java.util.function.LongBinaryOperator ints, java.util.function.DoubleBinaryOperator floats) {
        return TemplateFunction.fixed(2, a -> {
            Object x = number(a.get(0));
            Object y = number(a.get(1));
            if (x instanceof Long l && y instanceof Long m) {
                return ints.applyAsLong(l, m);
            }
            return floats.applyAsDouble(((Number) x).doubleValue(), ((Number) y).doubleValue());
        });
    }

    private static Object number(Object v) {
        if (v instanceof Integer || v instanceof Long) {
            return ((Number) v).longValue();
        }
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof String s) {
            String t = s.strip();
            return t.matches("[+-]?\\d+") ? (Object) Long.parseLong(t) : (Object) Double.parseDouble(t);
        }
        throw new IllegalArgumentException("unknown type for " + Values.print(v) + " (" + Values.typeName(v) + ")");
    }

    static String text(Object v) {
        return v instanceof String s ? s : Values.print(v);
    }

    private static long integer(Object v) {
        return ((Number) number(v)).longValue();
    }

    private static List<?> list(Object v) {
        if (v instanceof List<?> l) {
            return l;
        }
        if (v instanceof Collection<?> c) {
            return List.copyOf(c);
        }
        throw new IllegalArgumentException("expected a list, got " + Values.typeName(v));
    }

    private static boolean contains(Object haystack, Object needle) {
        if (haystack instanceof String s) {
            return s.contains(text(needle));
        }
        if (haystack instanceof Map<?, ?> m) {
            return m.containsKey(needle);
        }
        return list(haystack).stream().anyMatch(x -> Values.print(x).equals(Values.print(needle)));
    }

    private static boolean bool(String s) {
        return switch (s.strip()) {
            case "1", "t", "T", "TRUE", "true", "True" -> true;
            case "0", "f", "F", "FALSE", "false", "False" -> false;
            default -> throw new IllegalArgumentException("strconv.ParseBool: parsing " + JsonFunctions.quote(s)
                    + ": invalid syntax");
        };
    }

    private static String title(String s) {
        StringBuilder out = new StringBuilder(s.length());
        boolean start = true;
        for (char c : s.toCharArray()) {
            out.append(start ? Character.toTitleCase(c) : c);
            start = !Character.isLetterOrDigit(c);
        }
        return out.toString();
    }

    private static String indent(long spaces, String s) {
        String pad = " ".repeat((int) Math.max(0, spaces));
        return Arrays.stream(s.split("\n", -1)).map(l -> pad + l).collect(Collectors.joining("\n"));
    }
}
