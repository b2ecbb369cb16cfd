package dev.berth.job.hcl.syntax;

/**
 * One problem in a configuration file, in HCL's diagnostic form: {@code <file>:<line>,<col>-<col>: <Summary>; <Detail>}
 * (a range over several lines is written {@code <line>,<col>-<line>,<col>}). Columns count characters from 1; the end
 * column is the one after the last character, as HCL writes it.
 */
public record Diagnostic(String file, Range subject, String summary, String detail) {

    /** Where in the text: start line and column, end line and column (exclusive). */
    public record Range(int line, int column, int endLine, int endColumn) {

        /** An empty range at a point, as HCL gives for something missing (a required argument: the block's opening brace). */
        public Range start() {
            return new Range(this.line, this.column, this.line, this.column);
        }

        public Range to(Range end) {
            return new Range(this.line, this.column, end.endLine, end.endColumn);
        }

        String text(String file) {
            return this.line == this.endLine ? file + ":" + this.line + "," + this.column + "-" + this.endColumn
                    : file + ":" + this.line + "," + this.column + "-" + this.endLine + "," + this.endColumn;
        }
    }

    /** A diagnostic that does not point into the file (Nomad's {@code Missing job block}). */
    public static Diagnostic unplaced(String summary, String detail) {
        return new Diagnostic("", null, summary, detail);
    }

    public String rangeText() {
        return this.subject == null ? "" : this.subject.text(this.file);
    }

    @Override
    public String toString() {
        return this.subject == null ? this.summary + "; " + this.detail : rangeText() + ": " + this.summary + "; " + this.detail;
    }
}
