package dev.berth.template.gotmpl;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The template's view of Java values, mirroring Go's: maps ({@code map[string]interface {}}), lists (slices),
 * strings, {@code Long}/{@code Double} numbers, booleans and nil. Truth and printing follow {@code text/template}.
 */
public final class Values {

    /** What a missing map key yields (printed {@code <no value>}), as distinct from a present nil ({@code <nil>}). */
    public enum Missing { VALUE }

    private Values() {
    }

    /** Go's {@code IsTrue}: false, 0, nil and empty strings, lists and maps are false. */
    public static boolean truth(Object v) {
        return switch (v) {
            case null -> false;
            case Missing m -> false;
            case Boolean b -> b;
            case Number n -> n.doubleValue() != 0;
            case CharSequence s -> !s.isEmpty();
            case Collection<?> c -> !c.isEmpty();
            case Map<?, ?> m -> !m.isEmpty();
            default -> true;
        };
    }

    /** Go's {@code %v}: {@code [a b]} for a list, {@code map[k:v]} for a map (keys sorted), {@code <nil>} for nil. */
    public static String print(Object v) {
        return switch (v) {
            case null -> "<nil>";
            case Missing m -> "<no value>";
            case Number n -> Numbers.format(n);
            case Collection<?> c -> c.stream().map(Values::print).collect(Collectors.joining(" ", "[", "]"));
            case Map<?, ?> m -> sorted(m).entrySet().stream().map(e -> print(e.getKey()) + ":" + print(e.getValue()))
                    .collect(Collectors.joining(" ", "map[", "]"));
            default -> v.toString();
        };
    }

    /** A map's entries in Go's print and range order (sorted keys). */
    static Map<Object, Object> sorted(Map<?, ?> m) {
        Map<Object, Object> out = new TreeMap<>(Values::compareKeys);
        out.putAll(m);
        return out;
    }

    private static int compareKeys(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return Double.compare(x.doubleValue(), y.doubleValue());
        }
        return String.valueOf(a).compareTo(String.valueOf(b));
    }

    /** Go's name of the value's type, for error messages. */
    public static String typeName(Object v) {
        return switch (v) {
            case null -> "interface {}";
            case Missing m -> "interface {}";
            case String s -> "string";
            case Boolean b -> "bool";
            case Double d -> "float64";
            case Float f -> "float64";
            case Number n -> "int";
            case List<?> l -> "[]interface {}";
            case Collection<?> c -> "[]interface {}";
            case Map<?, ?> m -> "map[string]interface {}";
            default -> v.getClass().getSimpleName();
        };
    }
}
