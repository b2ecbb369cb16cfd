package dev.berth.job.hcl.syntax;

import java.util.List;
import java.util.Set;

import dev.berth.job.hcl.syntax.Token.Kind;

/**
 * HCL's expression grammar, lowest precedence first: conditional, {@code ||}, {@code &&}, equality, comparison,
 * {@code + -}, {@code * / %}, unary {@code ! -}, then traversals ({@code .name}, {@code [i]}, splats) on a term. What a
 * schema check can judge (literals, tuples, objects) keeps its value; the rest is {@link Hcl.Computed}.
 */
final class Expressions {

    private static final List<Set<String>> BINARY = List.of(Set.of("||"), Set.of("&&"), Set.of("==", "!="), Set.of("<", ">", "<=", ">="),
            Set.of("+", "-"), Set.of("*", "/", "%"));

    private final Parser p;

    Expressions(Parser p) {
        this.p = p;
    }

    Hcl.Expr conditional() throws SyntaxError {
        Hcl.Expr cond = binary(0);
        if (!this.p.peek().is("?")) {
            return cond;
        }
        this.p.read();
        conditional();
        Token colon = this.p.read();
        if (!colon.is(":")) {
            throw this.p.error(colon.range(), "Missing false expression in conditional", "The conditional operator (...?...:...) requires a false "
                    + "expression, delimited by a colon.");
        }
        Hcl.Expr no = conditional();
        return new Hcl.Computed(cond.range().to(no.range()), cond.start());
    }

    private Hcl.Expr binary(int level) throws SyntaxError {
        if (level == BINARY.size()) {
            return unary();
        }
        Hcl.Expr left = binary(level + 1);
        while (this.p.peek().is(Kind.PUNCT) && BINARY.get(level).contains(this.p.peek().text())) {
            this.p.read();
            Hcl.Expr right = binary(level + 1);
            left = new Hcl.Computed(left.range().to(right.range()), left.start());
        }
        return left;
    }

    private Hcl.Expr unary() throws SyntaxError {
        Token t = this.p.peek();
        if (t.is("!") || t.is("-")) {
            this.p.read();
            Hcl.Expr e = unary();
            if (t.is("-") && e instanceof Hcl.Literal(Number n, Diagnostic.Range r)) {
                return new Hcl.Literal(n instanceof Long l ? -l : -n.doubleValue(), t.range().to(r));
            }
            return new Hcl.Computed(t.range().to(e.range()), t.range());
        }
        return traversals(term());
    }

    private Hcl.Expr traversals(Hcl.Expr e) throws SyntaxError {
        while (true) {
            Token t = this.p.peek();
            if (t.is(".")) {
                this.p.read();
                Token name = this.p.read();
                if (!(name.is(Kind.IDENT) || name.is(Kind.NUMBER) || name.is("*"))) {
                    throw this.p.error(name.range(), "Invalid attribute name", "An attribute name is required after a dot.");
                }
                e = new Hcl.Computed(e.range().to(name.range()), e.start());
            } else if (t.is("[")) {
                this.p.read();
                this.p.newlines(true);
                if (this.p.peek().is("*")) {
                    this.p.read();
                } else {
                    conditional();
                }
                Token close = this.p.read();
                this.p.endNewlines();
                if (!close.is("]")) {
                    throw this.p.error(close.range(), "Missing close bracket on index", "The index operator must end with a closing bracket (\"]\").");
                }
                e = new Hcl.Computed(e.range().to(close.range()), e.start());
            } else {
                return e;
            }
        }
    }

    private Hcl.Expr term() throws SyntaxError {
        Token t = this.p.read();
        switch (t.kind()) {
            case NUMBER:
                return new Hcl.Literal(t.text().matches("\\d+") && t.text().length() < 19 ? (Number) Long.parseLong(t.text())
                        : (Number) Double.parseDouble(t.text()), t.range());
            case STRING:
                for (List<Token> part : t.parts()) {
                    this.p.interpolation(part, t.range());
                }
                return new Hcl.Text(Literals.unquote(t.text()), t.parts().isEmpty(), t.range());
            case HEREDOC:
                return new Hcl.Text(t.text(), !t.text().contains("${") && !t.text().contains("%{"), t.range());
            case IDENT:
                return identifier(t);
            default:
                break;
        }
        if (t.is("(")) {
            this.p.newlines(true);
            Hcl.Expr inner = conditional();
            Token close = this.p.read();
            this.p.endNewlines();
            if (!close.is(")")) {
                throw this.p.error(close.range(), "Unbalanced parentheses", "Expected a closing parenthesis to terminate the expression.");
            }
            return new Hcl.Computed(t.range().to(close.range()), t.range());
        }
        if (t.is("[")) {
            return new Collections(this.p, this).tuple(t);
        }
        if (t.is("{")) {
            return new Collections(this.p, this).object(t);
        }
        if (t.is(Kind.EOF)) {
            throw this.p.error(t.range(), "Missing expression", "Expected the start of an expression, but found the end of the file.");
        }
        throw this.p.error(t.range(), "Invalid expression", "Expected the start of an expression, but found an invalid expression token.");
    }

    private Hcl.Expr identifier(Token t) throws SyntaxError {
        switch (t.text()) {
            case "true", "false":
                return new Hcl.Literal(Boolean.parseBoolean(t.text()), t.range());
            case "null":
                return new Hcl.Literal(null, t.range());
            default:
                break;
        }
        if (!this.p.peek().is("(")) {
            return new Hcl.Computed(t.range(), t.range());
        }
        Token open = this.p.read();
        this.p.newlines(true);
        try {
            while (true) {
                if (this.p.peek().is(")")) {
                    return new Hcl.Computed(t.range().to(this.p.read().range()), t.range());
                }
                conditional();
                Token sep = this.p.read();
                if (sep.is("...")) {
                    sep = this.p.read();
                }
                if (sep.is(")")) {
                    return new Hcl.Computed(t.range().to(sep.range()), t.range());
                }
                if (sep.is(Kind.EOF)) {
                    throw this.p.error(open.range(), "Unterminated function call", "There is no closing parenthesis for this function call before the "
                            + "end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file.");
                }
                if (!sep.is(",")) {
                    throw this.p.error(sep.range(), "Missing argument separator", "A comma is required to separate each function argument from the next.");
                }
            }
        } finally {
            this.p.endNewlines();
        }
    }

    /** A {@code for} expression's inside, read to its closing bracket: {@code [for v in list : upper(v)]}. */
    Hcl.Expr forExpression(Token open, String close) throws SyntaxError {
        this.p.read(); // for
        Token t;
        do {
            t = this.p.read();
        } while (!t.is("in") && !(t.is(Kind.IDENT) && t.text().equals("in")) && !t.is(Kind.EOF));
        conditional();
        Token colon = this.p.read();
        if (!colon.is(":")) {
            throw this.p.error(colon.range(), "Invalid 'for' expression", "The 'for' expression requires a colon after the collection expression.");
        }
        conditional();
        if (this.p.peek().is("=>")) {
            this.p.read();
            conditional();
            if (this.p.peek().is("...")) {
                this.p.read();
            }
        }
        if (this.p.peek().is(Kind.IDENT) && this.p.peek().text().equals("if")) {
            this.p.read();
            conditional();
        }
        Token end = this.p.read();
        if (!end.is(close)) {
            throw this.p.error(end.range(), "Invalid 'for' expression", "Extra characters after the end of the 'for' expression.");
        }
        return new Hcl.Computed(open.range().to(end.range()), open.range());
    }
}
