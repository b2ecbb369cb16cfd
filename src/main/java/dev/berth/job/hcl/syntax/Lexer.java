package dev.berth.job.hcl.syntax;

import java.util.ArrayList;
import java.util.List;

import dev.berth.job.hcl.syntax.Token.Kind;

/**
 * Splits HCL native syntax into tokens with line and column: identifiers, numbers, quoted templates (with the tokens of
 * their interpolations), heredocs, punctuation and newlines; comments ({@code #}, {@code //}, {@code /* *}{@code /}) are
 * dropped. A character HCL does not use, or a string or comment left open, is a {@link SyntaxError} at its place.
 */
final class Lexer {

    private static final String[] OPERATORS = {"==", "!=", "<=", ">=", "&&", "||", "=>", "...", "{", "}", "[", "]", "(", ")",
        "=", ",", ".", ":", "?", "!", "+", "-", "*", "/", "%", "<", ">"};

    private final String src;
    private final String file;
    private int pos;
    private int line = 1;
    private int col = 1;

    Lexer(String src, String file) {
        this.src = src;
        this.file = file;
    }

    static List<Token> tokens(String src, String file) throws SyntaxError {
        Lexer lexer = new Lexer(src, file);
        List<Token> out = lexer.until(false);
        out.add(new Token(Kind.EOF, "", lexer.here(0)));
        return out;
    }

    /** Tokens to the end of the text or, inside an interpolation, to its unmatched closing brace (consumed). */
    private List<Token> until(boolean interpolation) throws SyntaxError {
        List<Token> out = new ArrayList<>();
        int depth = 0;
        while (this.pos < this.src.length()) {
            char c = this.src.charAt(this.pos);
            if (c == ' ' || c == '\t' || c == '\r') {
                advance(1);
            } else if (c == '\n') {
                // HCL's newline token ends at the start of the next line
                out.add(new Token(Kind.NEWLINE, "\n", new Diagnostic.Range(this.line, this.col, this.line + 1, 1)));
                advance(1);
            } else if (c == '#' || this.src.startsWith("//", this.pos)) {
                while (this.pos < this.src.length() && this.src.charAt(this.pos) != '\n') {
                    advance(1);
                }
            } else if (this.src.startsWith("/*", this.pos)) {
                blockComment();
            } else if (interpolation && c == '~' && (peekCloses() || out.isEmpty())) {
                advance(1); // a strip marker: ${~ x ~}
            } else if (interpolation && c == '}' && depth == 0) {
                advance(1);
                return out;
            } else if (Character.isLetter(c) || c == '_') {
                out.add(take(Kind.IDENT, identLength()));
            } else if (Character.isDigit(c)) {
                out.add(take(Kind.NUMBER, numberLength()));
            } else if (c == '"') {
                out.add(string());
            } else if (this.src.startsWith("<<", this.pos) && heredocStart()) {
                out.add(heredoc());
            } else {
                String op = operator();
                if (op == null) {
                    throw error(here(1), "Invalid character", "This character is not used within the language.");
                }
                depth += op.equals("{") ? 1 : op.equals("}") ? -1 : 0;
                out.add(take(Kind.PUNCT, op.length()));
            }
        }
        if (interpolation) {
            throw error(here(0), "Unterminated template string", "No closing marker was found for the string.");
        }
        return out;
    }

    private boolean peekCloses() {
        return this.pos + 1 < this.src.length() && this.src.charAt(this.pos + 1) == '}';
    }

    private void blockComment() throws SyntaxError {
        Diagnostic.Range start = here(2);
        int end = this.src.indexOf("*/", this.pos + 2);
        if (end < 0) {
            throw error(start, "Unterminated block comment", "There is no closing marker for this block comment before the end of the file.");
        }
        advance(end + 2 - this.pos);
    }

    private int identLength() {
        int i = this.pos;
        while (i < this.src.length() && (Character.isLetterOrDigit(this.src.charAt(i)) || this.src.charAt(i) == '_' || this.src.charAt(i) == '-')) {
            i++;
        }
        return i - this.pos;
    }

    private int numberLength() {
        int i = this.pos;
        while (i < this.src.length() && Character.isDigit(this.src.charAt(i))) {
            i++;
        }
        if (i + 1 < this.src.length() && this.src.charAt(i) == '.' && Character.isDigit(this.src.charAt(i + 1))) {
            i++;
            while (i < this.src.length() && Character.isDigit(this.src.charAt(i))) {
                i++;
            }
        }
        if (i < this.src.length() && (this.src.charAt(i) == 'e' || this.src.charAt(i) == 'E')) {
            int j = i + 1;
            if (j < this.src.length() && (this.src.charAt(j) == '+' || this.src.charAt(j) == '-')) {
                j++;
            }
            if (j < this.src.length() && Character.isDigit(this.src.charAt(j))) {
                i = j;
                while (i < this.src.length() && Character.isDigit(this.src.charAt(i))) {
                    i++;
                }
            }
        }
        return i - this.pos;
    }

    private String operator() {
        for (String op : OPERATORS) {
            if (this.src.startsWith(op, this.pos)) {
                return op;
            }
        }
        return null;
    }

    /** A quoted template: {@code "…"} with escapes, {@code ${…}} and {@code %{…}}; it may not run past its line. */
    private Token string() throws SyntaxError {
        int startLine = this.line;
        int startCol = this.col;
        int start = this.pos;
        advance(1);
        List<List<Token>> parts = new ArrayList<>();
        while (true) {
            if (this.pos >= this.src.length()) {
                throw error(new Diagnostic.Range(startLine, startCol, startLine, startCol + 1), "Unterminated template string",
                        "No closing marker was found for the string.");
            }
            char c = this.src.charAt(this.pos);
            if (c == '"') {
                advance(1);
                break;
            } else if (c == '\n') {
                throw error(new Diagnostic.Range(this.line, this.col, this.line + 1, 1), "Invalid multi-line string", "Quoted strings may not be split over multiple lines. To produce a "
                        + "multi-line string, either use the \\n escape to represent a newline character or use the \"heredoc\" "
                        + "multi-line template syntax.");
            } else if (c == '\\') {
                advance(Math.min(2, this.src.length() - this.pos));
            } else if (this.src.startsWith("$${", this.pos) || this.src.startsWith("%%{", this.pos)) {
                advance(3);
            } else if (this.src.startsWith("${", this.pos)) {
                advance(2);
                parts.add(until(true));
            } else if (this.src.startsWith("%{", this.pos)) {
                advance(2);
                until(true); // a directive (if, for, else, end…): its words are not an expression
            } else {
                advance(1);
            }
        }
        return new Token(Kind.STRING, this.src.substring(start, this.pos), new Diagnostic.Range(startLine, startCol, this.line, this.col),
                List.copyOf(parts));
    }

    private boolean heredocStart() {
        int i = this.pos + 2;
        if (i < this.src.length() && this.src.charAt(i) == '-') {
            i++;
        }
        return i < this.src.length() && (Character.isLetter(this.src.charAt(i)) || this.src.charAt(i) == '_');
    }

    /** {@code <<EOT} or {@code <<-EOT} to a line holding only the marker; the text inside is kept as written. */
    private Token heredoc() throws SyntaxError {
        int startLine = this.line;
        int startCol = this.col;
        int start = this.pos;
        int i = this.pos + 2 + (this.src.charAt(this.pos + 2) == '-' ? 1 : 0);
        int nameEnd = i;
        while (nameEnd < this.src.length() && (Character.isLetterOrDigit(this.src.charAt(nameEnd)) || this.src.charAt(nameEnd) == '_')) {
            nameEnd++;
        }
        String marker = this.src.substring(i, nameEnd);
        int lineStart = this.src.indexOf('\n', nameEnd);
        while (lineStart >= 0) {
            int lineEnd = this.src.indexOf('\n', lineStart + 1);
            String l = this.src.substring(lineStart + 1, lineEnd < 0 ? this.src.length() : lineEnd);
            if (l.strip().equals(marker)) {
                advance((lineEnd < 0 ? this.src.length() : lineEnd) - this.pos);
                return new Token(Kind.HEREDOC, this.src.substring(start, this.pos), new Diagnostic.Range(startLine, startCol, this.line, this.col));
            }
            lineStart = lineEnd;
        }
        throw error(new Diagnostic.Range(startLine, startCol, startLine, startCol + nameEnd - this.pos), "Unterminated template string",
                "No closing marker was found for the string.");
    }

    private Token take(Kind kind, int length) {
        Token t = new Token(kind, this.src.substring(this.pos, this.pos + length), here(length));
        advance(length);
        return t;
    }

    private Diagnostic.Range here(int length) {
        return new Diagnostic.Range(this.line, this.col, this.line, this.col + length);
    }

    private void advance(int n) {
        for (int k = 0; k < n; k++) {
            if (this.src.charAt(this.pos) == '\n') {
                this.line++;
                this.col = 1;
            } else {
                this.col++;
            }
            this.pos++;
        }
    }

    private SyntaxError error(Diagnostic.Range at, String summary, String detail) {
        return new SyntaxError(new Diagnostic(this.file, at, summary, detail));
    }
}
