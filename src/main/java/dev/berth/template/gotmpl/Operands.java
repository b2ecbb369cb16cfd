package dev.berth.template.gotmpl;

import java.util.ArrayList;
import java.util.List;

import dev.berth.template.gotmpl.Node.Arg;
import dev.berth.template.gotmpl.Token.Kind;

/** Parses the commands of a pipeline and their operands (terms with their field chains). */
final class Operands {

    private final Parser parser;

    Operands(Parser parser) {
        this.parser = parser;
    }

    /** The operands of one command, up to a {@code |} or the end of the pipeline. */
    Node.Command command() throws TemplateException {
        List<Arg> args = new ArrayList<>();
        while (true) {
            Kind k = parser.peek().kind();
            if (k == Kind.PIPE || k == Kind.RIGHT || k == Kind.RPAREN || k == Kind.EOF) {
                break;
            }
            if (!args.isEmpty() && !parser.peek().spaceBefore()) {
                throw parser.error(parser.peek(), "missing space?");
            }
            args.add(operand());
        }
        if (args.isEmpty()) {
            throw parser.error(parser.peek(), "empty command");
        }
        return new Node.Command(List.copyOf(args));
    }

    private Arg operand() throws TemplateException {
        Token first = parser.peek();
        Arg term = term();
        List<String> chain = new ArrayList<>();
        while (parser.peek().kind() == Kind.FIELD && !parser.peek().spaceBefore()) {
            chain.add(parser.take().text().substring(1));
        }
        if (chain.isEmpty()) {
            return term;
        }
        return switch (term) {
            case Node.Field f -> new Node.Field(concat(f.names(), chain));
            case Node.Variable v -> new Node.Variable(v.name(), concat(v.fields(), chain));
            case Node.Chain c -> new Node.Chain(c.pipe(), concat(c.fields(), chain));
            case Node.Dot d -> throw parser.error(first, "unexpected . after term \".\"");
            default -> throw parser.error(first, "unexpected . after term " + first.describe());
        };
    }

    private Arg term() throws TemplateException {
        Token t = parser.take();
        return switch (t.kind()) {
            case IDENTIFIER -> {
                if (!parser.isFunction(t.text())) {
                    throw parser.error(t, "function \"" + t.text() + "\" not defined");
                }
                yield new Node.Function(t.text());
            }
            case DOT -> new Node.Dot();
            case NIL -> new Node.Constant(null);
            case FIELD -> new Node.Field(List.of(t.text().substring(1)));
            case VARIABLE -> {
                if (!parser.isVariable(t.text())) {
                    throw parser.error(t, "undefined variable \"" + t.text() + "\"");
                }
                yield new Node.Variable(t.text(), List.of());
            }
            case BOOL -> new Node.Constant(Boolean.parseBoolean(t.text()));
            case NUMBER -> new Node.Constant(Numbers.parse(t.text()));
            case CHAR -> new Node.Constant((long) t.text().codePointAt(0));
            case STRING -> new Node.Constant(t.text());
            case LPAREN -> new Node.Chain(parser.pipeline("parenthesized pipeline", Kind.RPAREN, false), List.of());
            default -> throw parser.error(t, "unexpected " + t.describe() + " in operand");
        };
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }
}
