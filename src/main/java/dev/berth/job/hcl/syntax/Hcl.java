package dev.berth.job.hcl.syntax;

import java.util.List;

/**
 * The structure of an HCL file as written, each part with its place: bodies of arguments and blocks, and expressions
 * kept only as far as a schema check needs them (literal values, tuples, objects; any other expression is
 * {@link Computed}, its value known only once evaluated).
 */
public final class Hcl {

    private Hcl() {
    }

    /** A body: the file itself or what a block's braces hold. {@code open} is the opening brace (the file's start). */
    public record Body(List<Attribute> attributes, List<Block> blocks, Diagnostic.Range open) {
    }

    public record Attribute(String name, Diagnostic.Range nameRange, Expr value) {
    }

    public record Block(String type, Diagnostic.Range typeRange, List<String> labels, List<Diagnostic.Range> labelRanges, Body body) {

        /** The block's header (type and labels), where HCL points for a block that is not allowed once more. */
        public Diagnostic.Range defRange() {
            return this.labelRanges.isEmpty() ? this.typeRange : this.typeRange.to(this.labelRanges.getLast());
        }
    }

    /** An expression; {@code start} is its first token, where HCL points when its value does not suit. */
    public sealed interface Expr {
        Diagnostic.Range range();

        Diagnostic.Range start();
    }

    /** A number, {@code true}/{@code false} or {@code null}. */
    public record Literal(Object value, Diagnostic.Range range) implements Expr {
        @Override
        public Diagnostic.Range start() {
            return this.range;
        }
    }

    /** A quoted or heredoc string; {@code constant} when it holds no interpolation ({@code text} is then its value). */
    public record Text(String text, boolean constant, Diagnostic.Range range) implements Expr {
        @Override
        public Diagnostic.Range start() {
            return this.range;
        }
    }

    public record Tuple(List<Expr> items, Diagnostic.Range range, Diagnostic.Range start) implements Expr {
    }

    public record ObjectCons(List<Expr> keys, List<Expr> values, Diagnostic.Range range, Diagnostic.Range start) implements Expr {
    }

    /** A variable, function call, operation, conditional or {@code for}: its value is known only once evaluated. */
    public record Computed(Diagnostic.Range range, Diagnostic.Range start) implements Expr {
    }
}
