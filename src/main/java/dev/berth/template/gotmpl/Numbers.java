package dev.berth.template.gotmpl;

import java.math.BigDecimal;

/** Go's number literals (decimal, {@code 0x}, {@code 0o}, {@code 0b}, {@code _} separators, floats) and number printing. */
final class Numbers {

    private Numbers() {
    }

    /** A {@code Long} for an integer literal, a {@code Double} for a float, null when the text is no number. */
    static Number parse(String text) {
        String t = text.replace("_", "");
        boolean negative = t.startsWith("-");
        String digits = t.startsWith("-") || t.startsWith("+") ? t.substring(1) : t;
        try {
            String lower = digits.toLowerCase();
            Long integer = lower.startsWith("0x") ? Long.valueOf(lower.substring(2), 16)
                    : lower.startsWith("0o") ? Long.valueOf(lower.substring(2), 8)
                    : lower.startsWith("0b") ? Long.valueOf(lower.substring(2), 2)
                    : lower.matches("0[0-7]+") ? Long.valueOf(lower.substring(1), 8)
                    : lower.matches("[0-9]+") ? Long.valueOf(lower) : null;
            if (integer != null) {
                return negative ? -integer : integer;
            }
            if (!lower.matches("([0-9]+\\.?[0-9]*|\\.[0-9]+)(e[+-]?[0-9]+)?")) {
                return null;
            }
            double d = Double.parseDouble(digits);
            return negative ? -d : d;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** A number as Go's {@code %v} prints it: integers in decimal, floats in their shortest form ({@code %g}). */
    static String format(Number n) {
        if (n instanceof Double || n instanceof Float) {
            double d = n.doubleValue();
            if (Double.isNaN(d)) {
                return "NaN";
            }
            if (Double.isInfinite(d)) {
                return d > 0 ? "+Inf" : "-Inf";
            }
            if (d == 0) {
                return "0";
            }
            BigDecimal exact = new BigDecimal(Double.toString(d)).stripTrailingZeros();
            int exponent = exact.precision() - exact.scale() - 1;
            if (exponent < -4 || exponent >= 21) {
                String mantissa = exact.movePointLeft(exponent).toPlainString();
                return mantissa + "e" + (exponent < 0 ? "-" : "+") + String.format("%02d", Math.abs(exponent));
            }
            return exact.toPlainString();
        }
        return n.toString();
    }

    /** Whether the value is one of Go's integer kinds here. */
    static boolean isInteger(Object v) {
        return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte;
    }
}
