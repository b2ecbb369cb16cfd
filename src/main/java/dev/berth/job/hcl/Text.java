package dev.berth.job.hcl;

import dev.berth.job.hcl.syntax.Diagnostic;

/** Offsets in a text from HCL's lines and columns (both from 1), and the text a range covers. */
final class Text {

    private Text() {
    }

    static int offset(String src, int line, int column) {
        int at = 0;
        for (int l = 1; l < line; l++) {
            at = src.indexOf('\n', at) + 1;
        }
        return Math.min(src.length(), at + column - 1);
    }

    static String slice(String src, Diagnostic.Range r) {
        return src.substring(offset(src, r.line(), r.column()), offset(src, r.endLine(), r.endColumn()));
    }
}
