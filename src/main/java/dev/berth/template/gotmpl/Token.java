package dev.berth.template.gotmpl;

/**
 * One lexeme of a template.
 *
 * @param kind        what it is
 * @param text        its text; for a string literal, the unquoted value
 * @param line        the line it starts on, from 1
 * @param spaceBefore whether white space separates it from the lexeme before (so {@code .A.B} is one chain, {@code .A .B}
 *                    two arguments)
 */
record Token(Kind kind, String text, int line, boolean spaceBefore) {

    enum Kind {
        TEXT, LEFT, RIGHT, FIELD, DOT, VARIABLE, IDENTIFIER, STRING, NUMBER, CHAR, BOOL, NIL, PIPE, LPAREN, RPAREN,
        DECLARE, ASSIGN, COMMA, KEYWORD, EOF
    }

    boolean is(Kind k, String t) {
        return kind == k && text.equals(t);
    }

    /** How Go's parser quotes an unexpected lexeme in its messages. */
    String describe() {
        return switch (kind) {
            case EOF -> "EOF";
            case STRING -> "quoted string";
            case RIGHT -> "\"" + text + "\"";
            case TEXT -> "text";
            default -> "\"" + text + "\"";
        };
    }
}
