package dev.berth.job.hcl;

import java.util.Optional;

import dev.berth.driver.GoDuration;
import dev.berth.job.hcl.BlockSpec.ArgType;
import dev.berth.job.hcl.syntax.Diagnostic;
import dev.berth.job.hcl.syntax.Hcl;

/**
 * Whether an argument's value, written as a literal, converts to the type Nomad decodes it into, with the texts of
 * HCL's type conversion ({@code a number is required}, {@code string required}…) and of Nomad's duration decoder. A
 * computed value (a variable, a call) is judged once evaluated, not here.
 */
final class ValueCheck {

    record Problem(Diagnostic.Range at, String summary, String detail) {
    }

    private ValueCheck() {
    }

    static Optional<Problem> check(Hcl.Attribute a, ArgType type) {
        Hcl.Expr e = a.value();
        String wrong = switch (type) {
            case STRING -> e instanceof Hcl.Tuple || e instanceof Hcl.ObjectCons ? "string required" : null;
            case NUMBER -> number(e);
            case BOOL -> bool(e);
            case STRINGS -> e instanceof Hcl.Text || e instanceof Hcl.ObjectCons || e instanceof Hcl.Literal l && l.value() != null
                    ? "list of string required" : null;
            case MAP -> e instanceof Hcl.Text || e instanceof Hcl.Tuple || e instanceof Hcl.Literal l && l.value() != null
                    ? "map of string required" : null;
            case DURATION -> null;
            case ANY -> null;
        };
        if (wrong != null) {
            return Optional.of(new Problem(e.start(), "Unsuitable value type", "Unsuitable value: " + wrong));
        }
        return type == ArgType.DURATION ? duration(e) : Optional.empty();
    }

    private static String number(Hcl.Expr e) {
        return switch (e) {
            case Hcl.Literal(Boolean b, Diagnostic.Range r) -> "number required";
            case Hcl.Text t when t.constant() && !t.text().strip().matches("[-+]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?") -> "a number is required";
            case Hcl.Tuple t -> "number required";
            case Hcl.ObjectCons o -> "number required";
            default -> null;
        };
    }

    private static String bool(Hcl.Expr e) {
        return switch (e) {
            case Hcl.Literal(Number n, Diagnostic.Range r) -> "bool required";
            case Hcl.Text t when t.constant() && !t.text().matches("true|false|1|0") -> "a bool is required";
            case Hcl.Tuple t -> "bool required";
            case Hcl.ObjectCons o -> "bool required";
            default -> null;
        };
    }

    /** Nomad's duration decoder: a string Go's {@code time.ParseDuration} reads, or a number of nanoseconds. */
    private static Optional<Problem> duration(Hcl.Expr e) {
        if (e instanceof Hcl.Literal(Object v, Diagnostic.Range r) && v == null) {
            return Optional.of(new Problem(e.start(), "Unsuitable value", "Unsuitable duration value: nil"));
        }
        if (e instanceof Hcl.Text t && t.constant()) {
            try {
                GoDuration.parse(t.text());
            } catch (IllegalArgumentException ex) {
                return Optional.of(new Problem(e.start(), "Unsuitable value type", "Unsuitable duration value: " + ex.getMessage()));
            }
        }
        String found = e instanceof Hcl.Literal(Boolean b, Diagnostic.Range r) ? "bool"
                : e instanceof Hcl.Tuple ? "tuple" : e instanceof Hcl.ObjectCons ? "object" : null;
        return found == null ? Optional.empty()
                : Optional.of(new Problem(e.start(), "Unsuitable value type", "Unsuitable value: expected a string but found " + found));
    }
}
