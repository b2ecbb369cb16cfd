package dev.berth.template.gotmpl;

/** Go's string literal rules: decoding an interpreted literal, and {@code strconv.Quote}. */
final class Strings {

    private Strings() {
    }

    /** The value of a quoted literal ({@code "…"} or {@code '…'}, quotes included); null when an escape is malformed. */
    static String unquote(String literal) {
        StringBuilder out = new StringBuilder();
        String body = literal.substring(1, literal.length() - 1);
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (++i >= body.length()) {
                return null;
            }
            char e = body.charAt(i);
            int hexDigits = switch (e) {
                case 'x' -> 2;
                case 'u' -> 4;
                case 'U' -> 8;
                default -> 0;
            };
            if (hexDigits > 0) {
                try {
                    out.appendCodePoint(Integer.parseInt(body.substring(i + 1, i + 1 + hexDigits), 16));
                } catch (NumberFormatException | IndexOutOfBoundsException ex) {
                    return null;
                }
                i += hexDigits;
                continue;
            }
            String simple = switch (e) {
                case 'n' -> "\n";
                case 't' -> "\t";
                case 'r' -> "\r";
                case 'a' -> "\u0007";
                case 'b' -> "\b";
                case 'f' -> "\f";
                case 'v' -> "\u000b";
                case '\\' -> "\\";
                case '"' -> "\"";
                case '\'' -> "'";
                default -> null;
            };
            if (simple == null) {
                return null;
            }
            out.append(simple);
        }
        return out.toString();
    }

    /** Go's {@code strconv.Quote}: double quotes, with the control characters, quotes and backslashes escaped. */
    static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        s.codePoints().forEach(cp -> out.append(escape(cp, '"')));
        return out.append('"').toString();
    }

    /** Go's {@code %q} of a rune. */
    static String quoteRune(int cp) {
        return "'" + escape(cp, '\'') + "'";
    }

    private static String escape(int cp, char quote) {
        return switch (cp) {
            case '\n' -> "\\n";
            case '\t' -> "\\t";
            case '\r' -> "\\r";
            case '\\' -> "\\\\";
            default -> {
                if (cp == quote) {
                    yield "\\" + quote;
                }
                if (cp < 0x20 || cp == 0x7f) {
                    yield String.format("\\x%02x", cp);
                }
                yield new String(Character.toChars(cp));
            }
        };
    }
}
