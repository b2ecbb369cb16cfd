package dev.berth.job;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

import tools.jackson.databind.JsonNode;

import dev.berth.alloc.task.Interpolator;

/**
 * Nomad's constraint operators checked against this node: targets are interpolated ({@code ${attr.kernel.name}},
 * {@code ${node.class}}, {@code ${meta.rack}}…) and compared. A target that does not resolve is unset.
 */
final class Constraints {

    private Constraints() {
    }

    /** The first constraint of job, group or task that this node does not meet, as Nomad's filter reason, else null. */
    static String unmet(JsonNode job, JsonNode group, Interpolator node) {
        List<JsonNode> all = new ArrayList<>();
        job.path("Constraints").forEach(all::add);
        group.path("Constraints").forEach(all::add);
        group.path("Tasks").forEach(t -> t.path("Constraints").forEach(all::add));
        for (JsonNode c : all) {
            String op = c.path("Operand").asString("=");
            if ("distinct_hosts".equals(op) || "distinct_property".equals(op)) {
                continue;
            }
            String l = c.path("LTarget").asString("");
            String r = c.path("RTarget").asString("");
            if (!meets(resolve(l, node), op, resolve(r, node))) {
                return l + " " + op + " " + r;
            }
        }
        return null;
    }

    /** Whether the node meets one constraint ({@code operand} empty: {@code =}), its targets interpolated against it. */
    static boolean met(String lTarget, String operand, String rTarget, Interpolator node) {
        return meets(resolve(lTarget, node), operand.isEmpty() ? "=" : operand, resolve(rTarget, node));
    }

    private static String resolve(String target, Interpolator node) {
        String v = node.replace(target);
        return v.contains("${") ? null : v;
    }

    static boolean meets(String l, String op, String r) {
        switch (op) {
            case "is_set":
                return l != null;
            case "is_not_set":
                return l == null;
            default:
                break;
        }
        if (l == null) {
            return false;
        }
        return switch (op) {
            case "=", "==", "is" -> l.equals(r);
            case "!=", "not" -> !l.equals(r);
            case "<", "<=", ">", ">=" -> compare(l, r, op);
            case "regexp" -> {
                try {
                    yield r != null && Pattern.compile(r).matcher(l).find();
                } catch (PatternSyntaxException e) {
                    yield false;
                }
            }
            case "set_contains", "set_contains_all" -> set(l).containsAll(set(r));
            case "set_contains_any" -> set(r).stream().anyMatch(set(l)::contains);
            case "version", "semver" -> version(l, r);
            default -> false;
        };
    }

    private static Set<String> set(String s) {
        return s == null ? Set.of() : Arrays.stream(s.split(",")).map(String::trim).filter(x -> !x.isEmpty()).collect(Collectors.toSet());
    }

    private static boolean compare(String l, String r, String op) {
        int c;
        try {
            c = Double.compare(Double.parseDouble(l), Double.parseDouble(r));
        } catch (NumberFormatException | NullPointerException e) {
            c = l.compareTo(r == null ? "" : r);
        }
        return switch (op) {
            case "<" -> c < 0;
            case "<=" -> c <= 0;
            case ">" -> c > 0;
            default -> c >= 0;
        };
    }

    /** Comma-separated version constraints ({@code ">= 1.2, < 2.0"}, {@code "= 5.10"}). */
    private static boolean version(String have, String constraints) {
        if (constraints == null) {
            return false;
        }
        for (String part : constraints.split(",")) {
            String p = part.trim();
            String op = p.replaceAll("^([<>=!~]*).*", "$1");
            String want = p.substring(op.length()).trim();
            int c = compareVersions(have, want);
            boolean ok = switch (op) {
                case "", "=", "==" -> c == 0;
                case "!=" -> c != 0;
                case "<" -> c < 0;
                case "<=" -> c <= 0;
                case ">" -> c > 0;
                case ">=" -> c >= 0;
                case "~>" -> c >= 0 && compareVersions(have, bump(want)) < 0;
                default -> false;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static String bump(String v) {
        String[] p = v.split("\\.");
        if (p.length < 2) {
            return Integer.toString(Integer.parseInt(p[0]) + 1);
        }
        p[p.length - 2] = Integer.toString(Integer.parseInt(p[p.length - 2].replaceAll("\\D.*", "")) + 1);
        return String.join(".", Arrays.copyOf(p, p.length - 1));
    }

    static int compareVersions(String a, String b) {
        String[] x = a.replaceFirst("^v", "").split("[.\\-+]");
        String[] y = b.replaceFirst("^v", "").split("[.\\-+]");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            long xi = i < x.length ? num(x[i]) : 0;
            long yi = i < y.length ? num(y[i]) : 0;
            if (xi != yi) {
                return Long.compare(xi, yi);
            }
        }
        return 0;
    }

    private static long num(String s) {
        String d = s.replaceAll("\\D.*", "");
        return d.isEmpty() ? 0 : Long.parseLong(d);
    }
}
