package dev.berth.template.gotmpl;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;

/**
 * Go's {@code fmt} as the {@code print}, {@code println} and {@code printf} functions use it. {@code printf} knows the
 * verbs templates use ({@code %v %s %d %q %f %e %g %t %x %X %c %%}) with flags, width and precision; a verb without an
 * operand prints {@code %!v(MISSING)}, one of the wrong kind {@code %!d(string=x)}, and unused operands
 * {@code %!(EXTRA type=value)}, as Go does.
 */
final class GoFormat {

    private GoFormat() {
    }

    /** {@code fmt.Sprint}: a space between operands when neither is a string. */
    static String sprint(List<Object> args) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < args.size(); i++) {
            if (i > 0 && !(args.get(i) instanceof String) && !(args.get(i - 1) instanceof String)) {
                out.append(' ');
            }
            out.append(Values.print(args.get(i)));
        }
        return out.toString();
    }

    /** {@code fmt.Sprintln}: spaces between all operands and a newline. */
    static String sprintln(List<Object> args) {
        return String.join(" ", args.stream().map(Values::print).toList()) + "\n";
    }

    static String sprintf(String format, List<Object> args) {
        StringBuilder out = new StringBuilder();
        int arg = 0;
        int i = 0;
        while (i < format.length()) {
            char c = format.charAt(i++);
            if (c != '%') {
                out.append(c);
                continue;
            }
            int start = i;
            while (i < format.length() && "+-# 0".indexOf(format.charAt(i)) >= 0) {
                i++;
            }
            while (i < format.length() && (Character.isDigit(format.charAt(i)) || format.charAt(i) == '.')) {
                i++;
            }
            if (i >= format.length()) {
                out.append("%!(NOVERB)");
                break;
            }
            String spec = format.substring(start, i);
            char verb = format.charAt(i++);
            if (verb == '%') {
                out.append('%');
            } else if (arg >= args.size()) {
                out.append("%!").append(verb).append("(MISSING)");
            } else {
                out.append(verb(verb, spec, args.get(arg++)));
            }
        }
        if (arg < args.size()) {
            out.append(args.subList(arg, args.size()).stream().map(v -> Values.typeName(v) + "=" + Values.print(v))
                    .collect(java.util.stream.Collectors.joining(", ", "%!(EXTRA ", ")")));
        }
        return out.toString();
    }

    private static String verb(char verb, String spec, Object v) {
        String pad = spec.replace("#", "").replace("+", "").replace(" ", "");
        return switch (verb) {
            case 'v' -> String.format("%" + widthOnly(pad) + "s", precision(Values.print(v), spec));
            case 's' -> v instanceof Number || v instanceof Boolean ? bad(verb, v)
                    : String.format("%" + widthOnly(pad) + "s", precision(Values.print(v), spec));
            case 'q' -> v instanceof String s ? String.format("%" + widthOnly(pad) + "s", Strings.quote(s))
                    : Numbers.isInteger(v) ? Strings.quoteRune(((Number) v).intValue()) : bad(verb, v);
            case 'd' -> Numbers.isInteger(v) ? String.format("%" + flags(spec) + "d", ((Number) v).longValue()) : bad(verb, v);
            case 'f', 'F', 'e', 'g' -> v instanceof Number n ? floating(verb, spec, n) : bad(verb, v);
            case 't' -> v instanceof Boolean b ? String.format("%" + widthOnly(pad) + "s", b) : bad(verb, v);
            case 'c' -> Numbers.isInteger(v) ? new String(Character.toChars(((Number) v).intValue())) : bad(verb, v);
            case 'x', 'X' -> hex(verb, v);
            default -> bad(verb, v);
        };
    }

    private static String floating(char verb, String spec, Number n) {
        String f = "%" + flags(spec) + (verb == 'F' ? 'f' : verb);
        if (verb == 'g' && !spec.contains(".")) {
            return String.format("%" + widthOnly(spec) + "s", Numbers.format(n.doubleValue()));
        }
        return String.format(f, n.doubleValue());
    }

    private static String hex(char verb, Object v) {
        String h;
        if (Numbers.isInteger(v)) {
            long l = ((Number) v).longValue();
            h = l < 0 ? "-" + Long.toHexString(-l) : Long.toHexString(l);
        } else if (v instanceof String s) {
            h = HexFormat.of().formatHex(s.getBytes(StandardCharsets.UTF_8));
        } else {
            return bad(verb, v);
        }
        return verb == 'X' ? h.toUpperCase() : h;
    }

    private static String precision(String s, String spec) {
        int dot = spec.indexOf('.');
        if (dot < 0) {
            return s;
        }
        String p = spec.substring(dot + 1);
        int n = p.isEmpty() ? 0 : Integer.parseInt(p);
        return s.length() > n ? s.substring(0, n) : s;
    }

    private static String widthOnly(String spec) {
        String w = spec.contains(".") ? spec.substring(0, spec.indexOf('.')) : spec;
        return w.replace("0", "").isEmpty() && !w.isEmpty() ? "" : w.replaceFirst("^0+(?=\\d)", "");
    }

    private static String flags(String spec) {
        return spec.replace("#", "");
    }

    private static String bad(char verb, Object v) {
        return "%!" + verb + "(" + Values.typeName(v) + "=" + Values.print(v) + ")";
    }
}
