package dev.berth.template.gotmpl;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import dev.berth.template.gotmpl.Token.Kind;

/**
 * Splits a template into text and the lexemes of its actions, as Go's {@code text/template/parse} lexer does: the
 * delimiters are configurable; {@code {{- } trims the white space before an action and { -}}} the white space after it
 * (the marker needs a space on its inner side); {@code /* … *}{@code /} right inside the delimiters is a comment and
 * yields nothing.
 */
final class Lexer {

    private static final Set<String> KEYWORDS = Set.of("block", "break", "continue", "define", "else", "end", "if", "range",
            "template", "with");
    private static final String COMMENT_OPEN = "/*";
    private static final String COMMENT_CLOSE = "*/";

    private final String name;
    private final String input;
    private final String left;
    private final String right;
    private final List<Token> tokens = new ArrayList<>();
    private int pos;
    private int line = 1;

    Lexer(String name, String input, String left, String right) {
        this.name = name;
        this.input = input;
        this.left = left == null || left.isEmpty() ? "{{" : left;
        this.right = right == null || right.isEmpty() ? "}}" : right;
    }

    List<Token> lex() throws TemplateException {
        boolean trimNext = false;
        while (pos < input.length()) {
            int open = input.indexOf(left, pos);
            String text = input.substring(pos, open < 0 ? input.length() : open);
            if (trimNext) {
                text = text.stripLeading();
            }
            boolean trimBefore = open >= 0 && trimMarkerAt(open + left.length());
            if (trimBefore) {
                text = text.stripTrailing();
            }
            if (!text.isEmpty()) {
                tokens.add(new Token(Kind.TEXT, text, line, false));
            }
            line += count(input, pos, open < 0 ? input.length() : open);
            if (open < 0) {
                pos = input.length();
                break;
            }
            pos = open + left.length() + (trimBefore ? 1 : 0);
            trimNext = action();
        }
        tokens.add(new Token(Kind.EOF, "", line, false));
        return tokens;
    }

    /** A trim marker is a '-' followed by white space. */
    private boolean trimMarkerAt(int at) {
        return at + 1 < input.length() && input.charAt(at) == '-' && Character.isWhitespace(input.charAt(at + 1));
    }

    /** Lexes one action after its left delimiter; true when it ends with a trim marker. */
    private boolean action() throws TemplateException {
        int startLine = line;
        int afterSpace = skipSpace(pos);
        if (input.startsWith(COMMENT_OPEN, afterSpace)) {
            return comment(afterSpace);
        }
        tokens.add(new Token(Kind.LEFT, left, startLine, false));
        while (true) {
            int start = pos;
            pos = skipSpace(pos);
            line += count(input, start, pos);
            boolean space = pos > start;
            if (pos >= input.length()) {
                throw error("unclosed action");
            }
            if (space && input.charAt(pos) == '-' && input.startsWith(right, pos + 1)) {
                pos += 1 + right.length();
                tokens.add(new Token(Kind.RIGHT, right, line, true));
                return true;
            }
            if (input.startsWith(right, pos)) {
                pos += right.length();
                tokens.add(new Token(Kind.RIGHT, right, line, space));
                return false;
            }
            lexeme(space);
        }
    }

    private boolean comment(int at) throws TemplateException {
        int close = input.indexOf(COMMENT_CLOSE, at + 2);
        if (close < 0) {
            throw error("unclosed comment");
        }
        line += count(input, pos, close);
        pos = close + 2;
        boolean trim = input.startsWith(" -" + right, pos);
        if (trim) {
            pos += 2;
        }
        if (!input.startsWith(right, pos)) {
            throw error("comment ends before closing delimiter");
        }
        pos += right.length();
        return trim;
    }

    private void lexeme(boolean space) throws TemplateException {
        char c = input.charAt(pos);
        switch (c) {
            case '|' -> single(Kind.PIPE, space);
            case '(' -> single(Kind.LPAREN, space);
            case ')' -> single(Kind.RPAREN, space);
            case ',' -> single(Kind.COMMA, space);
            case '=' -> single(Kind.ASSIGN, space);
            case ':' -> {
                if (pos + 1 >= input.length() || input.charAt(pos + 1) != '=') {
                    throw error("expected :=");
                }
                pos += 2;
                tokens.add(new Token(Kind.DECLARE, ":=", line, space));
            }
            case '"' -> quoted(Kind.STRING, '"', space);
            case '`' -> rawString(space);
            case '\'' -> quoted(Kind.CHAR, '\'', space);
            case '$' -> word(Kind.VARIABLE, pos + 1, space);
            case '.' -> dot(space);
            default -> {
                if (c == '+' || c == '-' || Character.isDigit(c)) {
                    number(space);
                } else if (Character.isLetter(c) || c == '_') {
                    identifier(space);
                } else {
                    throw error("unrecognized character in action: " + Strings.quoteRune(c));
                }
            }
        }
    }

    private void single(Kind kind, boolean space) {
        tokens.add(new Token(kind, String.valueOf(input.charAt(pos)), line, space));
        pos++;
    }

    /** A Go interpreted string or rune literal: escapes are decoded, and it may not run past its line. */
    private void quoted(Kind kind, char quote, boolean space) throws TemplateException {
        int end = pos + 1;
        while (end < input.length() && input.charAt(end) != quote) {
            if (input.charAt(end) == '\\') {
                end++;
            }
            if (end >= input.length() || input.charAt(end) == '\n') {
                throw error(kind == Kind.STRING ? "unterminated quoted string" : "unterminated character constant");
            }
            end++;
        }
        if (end >= input.length()) {
            throw error(kind == Kind.STRING ? "unterminated quoted string" : "unterminated character constant");
        }
        String raw = input.substring(pos, end + 1);
        String value = Strings.unquote(raw);
        if (value == null || kind == Kind.CHAR && value.codePointCount(0, value.length()) != 1) {
            throw error("bad " + (kind == Kind.STRING ? "string" : "character") + " syntax: " + raw);
        }
        tokens.add(new Token(kind, value, line, space));
        pos = end + 1;
    }

    private void rawString(boolean space) throws TemplateException {
        int close = input.indexOf('`', pos + 1);
        if (close < 0) {
            throw error("unterminated raw quoted string");
        }
        String value = input.substring(pos + 1, close);
        tokens.add(new Token(Kind.STRING, value, line, space));
        line += count(value, 0, value.length());
        pos = close + 1;
    }

    private void dot(boolean space) throws TemplateException {
        if (pos + 1 < input.length() && Character.isDigit(input.charAt(pos + 1))) {
            number(space);
        } else if (pos + 1 < input.length() && isAlnum(input.charAt(pos + 1))) {
            word(Kind.FIELD, pos + 1, space);
        } else {
            single(Kind.DOT, space);
        }
    }

    private void word(Kind kind, int from, boolean space) {
        int end = from;
        while (end < input.length() && isAlnum(input.charAt(end))) {
            end++;
        }
        tokens.add(new Token(kind, input.substring(pos, end), line, space));
        pos = end;
    }

    private void identifier(boolean space) {
        int end = pos;
        while (end < input.length() && isAlnum(input.charAt(end))) {
            end++;
        }
        String word = input.substring(pos, end);
        Kind kind = KEYWORDS.contains(word) ? Kind.KEYWORD
                : word.equals("true") || word.equals("false") ? Kind.BOOL
                : word.equals("nil") ? Kind.NIL : Kind.IDENTIFIER;
        tokens.add(new Token(kind, word, line, space));
        pos = end;
    }

    private void number(boolean space) throws TemplateException {
        int end = pos;
        if (input.charAt(end) == '+' || input.charAt(end) == '-') {
            end++;
        }
        while (end < input.length() && (isAlnum(input.charAt(end)) || input.charAt(end) == '.'
                || (input.charAt(end) == '+' || input.charAt(end) == '-') && "eEpP".indexOf(input.charAt(end - 1)) >= 0)) {
            end++;
        }
        String text = input.substring(pos, end);
        if (Numbers.parse(text) == null) {
            throw error("bad number syntax: \"" + text + "\"");
        }
        tokens.add(new Token(Kind.NUMBER, text, line, space));
        pos = end;
    }

    private int skipSpace(int from) {
        int p = from;
        while (p < input.length() && Character.isWhitespace(input.charAt(p)) && !input.startsWith(right, p)) {
            p++;
        }
        return p;
    }

    private static boolean isAlnum(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    private static int count(String s, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            if (s.charAt(i) == '\n') {
                n++;
            }
        }
        return n;
    }

    private TemplateException error(String message) {
        return new TemplateException("template: " + name + ":" + line + ": " + message);
    }
}
