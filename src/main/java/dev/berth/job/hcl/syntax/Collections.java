package dev.berth.job.hcl.syntax;

import java.util.ArrayList;
import java.util.List;

import dev.berth.job.hcl.syntax.Token.Kind;

/** Tuple ({@code [a, b]}) and object ({@code {k = v}}) constructors, and the {@code for} expressions written in their brackets. */
final class Collections {

    private final Parser p;
    private final Expressions expressions;

    Collections(Parser p, Expressions expressions) {
        this.p = p;
        this.expressions = expressions;
    }

    Hcl.Expr tuple(Token open) throws SyntaxError {
        this.p.newlines(true);
        try {
            if (this.p.forAhead()) {
                return this.expressions.forExpression(open, "]");
            }
            List<Hcl.Expr> items = new ArrayList<>();
            while (true) {
                if (this.p.peek().is("]")) {
                    return new Hcl.Tuple(items, open.range().to(this.p.read().range()), open.range());
                }
                if (this.p.peek().is(Kind.EOF)) {
                    throw unterminatedTuple(open);
                }
                items.add(this.expressions.conditional());
                Token sep = this.p.peek();
                if (sep.is(",")) {
                    this.p.read();
                } else if (sep.is(Kind.EOF)) {
                    throw unterminatedTuple(open);
                } else if (!sep.is("]")) {
                    throw this.p.error(sep.range(), "Missing item separator", "Expected a comma to mark the beginning of the next item.");
                }
            }
        } finally {
            this.p.endNewlines();
        }
    }

    private SyntaxError unterminatedTuple(Token open) {
        return this.p.error(open.range(), "Unterminated tuple constructor expression", "There is no corresponding closing bracket before the "
                + "end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.");
    }

    Hcl.Expr object(Token open) throws SyntaxError {
        this.p.newlines(true);
        if (this.p.forAhead()) {
            try {
                return this.expressions.forExpression(open, "}");
            } finally {
                this.p.endNewlines();
            }
        }
        this.p.endNewlines();
        this.p.newlines(false);
        try {
            List<Hcl.Expr> keys = new ArrayList<>();
            List<Hcl.Expr> values = new ArrayList<>();
            while (true) {
                Token t = this.p.peek();
                if (t.is(Kind.NEWLINE) || t.is(",")) {
                    this.p.read();
                    continue;
                }
                if (t.is("}")) {
                    return new Hcl.ObjectCons(keys, values, open.range().to(this.p.read().range()), open.range());
                }
                if (t.is(Kind.EOF)) {
                    throw this.p.error(open.range(), "Unterminated object constructor expression", "There is no corresponding closing brace before "
                            + "the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.");
                }
                keys.add(key());
                Token sep = this.p.read();
                if (!sep.is("=") && !sep.is(":")) {
                    throw this.p.error(sep.range(), "Missing key/value separator", "Expected an equals sign (\"=\") to mark the beginning of the "
                            + "attribute value.");
                }
                values.add(this.expressions.conditional());
                Token after = this.p.peek();
                if (!after.is(",") && !after.is(Kind.NEWLINE) && !after.is("}")) {
                    throw this.p.error(after.range(), "Missing attribute separator", "Expected a newline or comma to mark the beginning of the next attribute.");
                }
            }
        } finally {
            this.p.endNewlines();
        }
    }

    /** A key is a bare name (its own text, never a variable) or any expression. */
    private Hcl.Expr key() throws SyntaxError {
        Token t = this.p.peek();
        if (t.is(Kind.IDENT)) {
            this.p.read();
            return new Hcl.Text(t.text(), true, t.range());
        }
        return this.expressions.conditional();
    }
}
