package dev.berth.job.hcl.syntax;

/** The value of a quoted string without interpolations: quotes removed, HCL's escapes resolved. */
final class Literals {

    private Literals() {
    }

    static String unquote(String quoted) {
        String s = quoted.length() >= 2 ? quoted.substring(1, quoted.length() - 1) : quoted;
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char e = s.charAt(++i);
                switch (e) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case 'u', 'U' -> {
                        int len = e == 'u' ? 4 : 8;
                        int end = Math.min(s.length(), i + 1 + len);
                        out.appendCodePoint(Integer.parseInt(s.substring(i + 1, end), 16));
                        i = end - 1;
                    }
                    default -> out.append(e);
                }
            } else if ((c == '$' || c == '%') && s.startsWith(c + "" + c + "{", i)) {
                out.append(c).append('{');
                i += 2;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
