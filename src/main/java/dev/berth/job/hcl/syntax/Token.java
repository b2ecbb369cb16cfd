package dev.berth.job.hcl.syntax;

import java.util.List;

/**
 * A lexical token of HCL's native syntax with its place. A quoted string keeps the tokens of each {@code ${…}}
 * interpolation it holds ({@code parts}), so the parser checks the expressions inside strings too.
 */
record Token(Kind kind, String text, Diagnostic.Range range, List<List<Token>> parts) {

    enum Kind { IDENT, NUMBER, STRING, HEREDOC, PUNCT, NEWLINE, EOF }

    Token(Kind kind, String text, Diagnostic.Range range) {
        this(kind, text, range, List.of());
    }

    boolean is(String punct) {
        return this.kind == Kind.PUNCT && this.text.equals(punct);
    }

    boolean is(Kind k) {
        return this.kind == k;
    }
}
