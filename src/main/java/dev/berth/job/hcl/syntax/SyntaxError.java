package dev.berth.job.hcl.syntax;

/** The first syntax error in a file: reading stops there, as nothing after it can be trusted to mean what it says. */
public final class SyntaxError extends Exception {

    private final transient Diagnostic diagnostic;

    SyntaxError(Diagnostic diagnostic) {
        super(diagnostic.toString());
        this.diagnostic = diagnostic;
    }

    public Diagnostic diagnostic() {
        return this.diagnostic;
    }
}
