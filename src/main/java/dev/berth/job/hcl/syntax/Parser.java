package dev.berth.job.hcl.syntax;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.berth.job.hcl.syntax.Token.Kind;

/**
 * HCL's native syntax (hclsyntax) read into {@link Hcl} with places: bodies of {@code name = expr} arguments and
 * {@code type "label" { … }} blocks (a one-line block holds one argument), and the full expression grammar
 * (conditionals, operators, calls, traversals, splats, tuples, objects, {@code for} expressions, templates). The first
 * syntax error stops reading, with HCL's summary and detail.
 */
public final class Parser {

    private final String file;
    private final List<Token> tokens;
    private final Deque<Boolean> skipNewlines = new ArrayDeque<>();
    private int next;

    private Parser(String file, List<Token> tokens) {
        this.file = file;
        this.tokens = tokens;
        this.skipNewlines.push(false);
    }

    public static Hcl.Body parse(String src, String file) throws SyntaxError {
        Parser p = new Parser(file, Lexer.tokens(src, file));
        return p.body(null, new Diagnostic.Range(1, 1, 1, 1));
    }

    /** An expression on its own (a {@code -var} value), to the end of the text. */
    public static Hcl.Expr expression(String src, String file) throws SyntaxError {
        Parser p = new Parser(file, Lexer.tokens(src, file));
        p.skipNewlines.push(true);
        Hcl.Expr e = p.expr();
        if (!p.peek().is(Kind.EOF)) {
            throw p.error(p.peek().range(), "Extra characters after expression", "An expression was successfully parsed, but extra characters were found after it.");
        }
        return e;
    }

    /** A body to its closing brace ({@code open} is that block's opening brace) or, for the file, to its end. */
    private Hcl.Body body(Token open, Diagnostic.Range start) throws SyntaxError {
        List<Hcl.Attribute> attributes = new ArrayList<>();
        List<Hcl.Block> blocks = new ArrayList<>();
        Map<String, Hcl.Attribute> seen = new LinkedHashMap<>();
        while (true) {
            Token t = read();
            if (t.is(Kind.NEWLINE)) {
                continue;
            }
            if (open != null ? t.is("}") : t.is(Kind.EOF)) {
                return new Hcl.Body(attributes, blocks, start);
            }
            if (t.is(Kind.EOF)) {
                throw error(open.range(), "Unclosed configuration block", "There is no closing brace for this block before the end of the file. "
                        + "This may be caused by incorrect brace nesting elsewhere in this file.");
            }
            if (t.is(Kind.STRING)) {
                throw error(t.range(), "Invalid argument name", "Argument names must not be quoted.");
            }
            if (!t.is(Kind.IDENT)) {
                throw error(t.range(), "Argument or block definition required", "An argument or block definition is required here.");
            }
            Token after = peek();
            if (after.is("=")) {
                Hcl.Attribute a = attribute(t);
                endOfLine("Missing newline after argument", "An argument definition must end with a newline.", true);
                if (seen.containsKey(a.name())) {
                    throw error(a.nameRange(), "Attribute redefined", "The argument \"" + a.name() + "\" was already set at "
                            + seen.get(a.name()).nameRange().text(this.file) + ". Each argument may be set only once.");
                }
                seen.put(a.name(), a);
                attributes.add(a);
            } else if (after.is(Kind.STRING) || after.is(Kind.IDENT) || after.is("{")) {
                blocks.add(block(t));
                endOfLine("Missing newline after block definition", "A block definition must end with a newline.", false);
            } else {
                throw error(t.range(), "Argument or block definition required", "An argument or block definition is required here. "
                        + "To set an argument, use the equals sign \"=\" to introduce the argument value.");
            }
        }
    }

    private Hcl.Attribute attribute(Token name) throws SyntaxError {
        read(); // =
        return new Hcl.Attribute(name.text(), name.range(), expr());
    }

    private void endOfLine(String summary, String detail, boolean argument) throws SyntaxError {
        Token end = peek();
        if (end.is(Kind.NEWLINE) || end.is(Kind.EOF) || end.is("}")) {
            return;
        }
        if (argument && end.is(",")) {
            throw error(end.range(), "Unexpected comma after argument", "Argument definitions must be separated by newlines, not commas. " + detail);
        }
        throw error(end.range(), summary, detail);
    }

    private Hcl.Block block(Token type) throws SyntaxError {
        List<String> labels = new ArrayList<>();
        List<Diagnostic.Range> labelRanges = new ArrayList<>();
        while (true) {
            Token t = read();
            if (t.is("{")) {
                Hcl.Body body = blockBody(t);
                return new Hcl.Block(type.text(), type.range(), List.copyOf(labels), List.copyOf(labelRanges), body);
            }
            if (t.is(Kind.STRING) && t.parts().isEmpty()) {
                labels.add(Literals.unquote(t.text()));
                labelRanges.add(t.range());
            } else if (t.is(Kind.IDENT)) {
                labels.add(t.text());
                labelRanges.add(t.range());
            } else if (t.is("=")) {
                throw error(t.range(), "Invalid block definition", "The equals sign \"=\" indicates an argument definition, and must not be used when defining a block.");
            } else if (t.is(Kind.NEWLINE)) {
                throw error(t.range(), "Invalid block definition", "A block definition must have block content delimited by \"{\" and \"}\", "
                        + "starting on the same line as the block header.");
            } else {
                throw error(t.range(), "Invalid block definition", "Either a quoted string block label or an opening brace (\"{\") is expected here.");
            }
        }
    }

    /** After the opening brace: a body over several lines, or one argument closed on its own line ({@code port "a" { to = 80 }}). */
    private Hcl.Body blockBody(Token open) throws SyntaxError {
        Token first = peek();
        if (first.is(Kind.NEWLINE) || first.is(Kind.EOF) || first.is("}")) {
            return body(open, open.range());
        }
        Token name = read();
        if (!name.is(Kind.IDENT) || !peek().is("=")) {
            if (name.is(Kind.IDENT) && (peek().is(Kind.STRING) || peek().is("{") || peek().is(Kind.IDENT))) {
                throw error(name.range().to(peek().range()), "Argument definition required", "A single-line block definition can contain only a "
                        + "single argument. If you meant to define argument \"" + name.text() + "\", use an equals sign to assign it a value. "
                        + "To define a nested block, place it on a line of its own within its parent block.");
            }
            throw error(name.range(), "Argument or block definition required", "An argument or block definition is required here.");
        }
        Hcl.Attribute only = attribute(name);
        Token close = read();
        if (close.is("}")) {
            return new Hcl.Body(List.of(only), List.of(), open.range());
        }
        if (close.is(",")) {
            throw error(close.range(), "Invalid single-argument block definition", "Single-line block syntax can include only one argument "
                    + "definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line.");
        }
        if (close.is(Kind.NEWLINE)) {
            throw error(close.range(), "Invalid single-argument block definition", "An argument definition on the same line as its containing "
                    + "block creates a single-line block definition, which must also be closed on the same line. Place the block's closing "
                    + "brace immediately after the argument definition.");
        }
        if (close.is(Kind.EOF)) {
            throw error(open.range(), "Unclosed configuration block", "There is no closing brace for this block before the end of the file. "
                    + "This may be caused by incorrect brace nesting elsewhere in this file.");
        }
        throw error(close.range(), "Invalid single-argument block definition", "A single-line block definition must end with a closing brace "
                + "immediately after its single argument definition.");
    }

    Hcl.Expr expr() throws SyntaxError {
        return new Expressions(this).conditional();
    }

    Token peek() {
        return this.tokens.get(ahead());
    }

    Token read() {
        int i = ahead();
        this.next = Math.min(i + 1, this.tokens.size() - 1);
        return this.tokens.get(i);
    }

    /** Whether a {@code for} expression starts here: {@code for} and then its first variable. */
    boolean forAhead() {
        int i = ahead();
        if (!this.tokens.get(i).is(Kind.IDENT) || !this.tokens.get(i).text().equals("for")) {
            return false;
        }
        int j = i + 1;
        while (this.tokens.get(j).is(Kind.NEWLINE)) {
            j++;
        }
        return this.tokens.get(j).is(Kind.IDENT);
    }

    private int ahead() {
        int i = this.next;
        while (this.skipNewlines.peek() && this.tokens.get(i).is(Kind.NEWLINE)) {
            i++;
        }
        return i;
    }

    /** Inside brackets and parentheses newlines separate nothing; inside an object they end an item. */
    void newlines(boolean skip) {
        this.skipNewlines.push(skip);
    }

    void endNewlines() {
        this.skipNewlines.pop();
    }

    String file() {
        return this.file;
    }

    /** Parses the expression of an interpolation ({@code ${…}}) from its own tokens. */
    Hcl.Expr interpolation(List<Token> part, Diagnostic.Range where) throws SyntaxError {
        List<Token> ts = new ArrayList<>(part);
        ts.add(new Token(Kind.EOF, "", part.isEmpty() ? where : part.getLast().range()));
        Parser sub = new Parser(this.file, ts);
        sub.skipNewlines.push(true);
        Hcl.Expr e = sub.expr();
        if (!sub.peek().is(Kind.EOF)) {
            throw error(sub.peek().range(), "Extra characters after interpolation expression", "Expected a closing brace to end the interpolation expression, but found extra characters.");
        }
        return e;
    }

    SyntaxError error(Diagnostic.Range at, String summary, String detail) {
        return new SyntaxError(new Diagnostic(this.file, at, summary, detail));
    }
}
