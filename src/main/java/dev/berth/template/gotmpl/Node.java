package dev.berth.template.gotmpl;

import java.util.List;

/** The parse tree of a template (Go's {@code parse.Node} kinds). */
sealed interface Node {

    /** Literal text, copied to the output. */
    record Text(String text) implements Node {
    }

    /** {@code {{pipeline}}}: prints the pipeline's value unless it declares or assigns variables. */
    record Action(int line, Pipe pipe) implements Node {
    }

    /** {@code if}, {@code range} and {@code with}: the body runs on a true (non-empty) value, the else list otherwise. */
    record Branch(Control control, int line, Pipe pipe, List<Node> body, List<Node> elseBody) implements Node {
    }

    /** {@code {{template "name" pipeline}}}: runs the named template with the pipeline's value (or nil) as dot. */
    record Call(int line, String name, Pipe pipe) implements Node {
    }

    /** {@code {{break}}} or {@code {{continue}}} inside a range. */
    record LoopJump(int line, boolean isBreak) implements Node {
    }

    enum Control { IF, RANGE, WITH }

    /**
     * A pipeline: commands joined by {@code |}, each command's value passed as the last argument of the next; it may
     * first declare ({@code :=}) or assign ({@code =}) variables.
     */
    record Pipe(int line, List<String> variables, boolean assign, List<Command> commands) {
    }

    /** A command: a function with its arguments, or a single operand. */
    record Command(List<Arg> args) {
    }

    /** An operand. */
    sealed interface Arg {
    }

    /** {@code .}: the current value. */
    record Dot() implements Arg {
    }

    /** {@code .A.B}: fields (or map keys) of dot. */
    record Field(List<String> names) implements Arg {
    }

    /** {@code $x.A}: a variable and optional fields. */
    record Variable(String name, List<String> fields) implements Arg {
    }

    /** A function name. */
    record Function(String name) implements Arg {
    }

    /** {@code (pipeline).A}: a parenthesised pipeline with optional fields. */
    record Chain(Pipe pipe, List<String> fields) implements Arg {
    }

    /** A string, number, boolean or nil constant. */
    record Constant(Object value) implements Arg {
    }
}
