package dev.berth.template.gotmpl;

/**
 * The comparison functions' rules: booleans, integers, floats and strings compare with their own kind (integers of any
 * size with each other); anything else is Go's {@code incompatible types for comparison}. Only numbers and strings
 * have an order.
 */
final class Comparison {

    private Comparison() {
    }

    private enum Kind { NIL, BOOL, INT, FLOAT, STRING, OTHER }

    static boolean equal(Object a, Object b) {
        Kind ka = kind(a);
        Kind kb = kind(b);
        if (ka == Kind.NIL || kb == Kind.NIL) {
            return ka == kb;
        }
        if (ka != kb) {
            throw new IllegalArgumentException("incompatible types for comparison");
        }
        return switch (ka) {
            case INT -> ((Number) a).longValue() == ((Number) b).longValue();
            case FLOAT -> ((Number) a).doubleValue() == ((Number) b).doubleValue();
            case OTHER -> {
                if (a instanceof java.util.Collection<?> || a instanceof java.util.Map<?, ?>) {
                    throw new IllegalArgumentException("non-comparable type " + Values.print(a) + ": " + Values.typeName(a));
                }
                yield a.equals(b);
            }
            default -> a.equals(b);
        };
    }

    private static Kind kind(Object v) {
        if (v == null || v instanceof Values.Missing) {
            return Kind.NIL;
        }
        if (Numbers.isInteger(v)) {
            return Kind.INT;
        }
        return isFloat(v) ? Kind.FLOAT : v instanceof String ? Kind.STRING : v instanceof Boolean ? Kind.BOOL : Kind.OTHER;
    }

    static int order(Object a, Object b) {
        if (Numbers.isInteger(a) && Numbers.isInteger(b)) {
            return Long.compare(((Number) a).longValue(), ((Number) b).longValue());
        }
        if (isFloat(a) && isFloat(b)) {
            return Double.compare(((Number) a).doubleValue(), ((Number) b).doubleValue());
        }
        if (a instanceof String x && b instanceof String y) {
            return x.compareTo(y);
        }
        if (a instanceof Boolean || a == null || a instanceof java.util.Collection<?> || a instanceof java.util.Map<?, ?>) {
            throw new IllegalArgumentException("invalid type for comparison");
        }
        throw new IllegalArgumentException("incompatible types for comparison");
    }

    private static boolean isFloat(Object v) {
        return v instanceof Double || v instanceof Float;
    }
}
