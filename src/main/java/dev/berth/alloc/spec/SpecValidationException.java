package dev.berth.alloc.spec;

/** A submitted allocation is invalid; {@link #field()} names the offending JSON field path. */
public class SpecValidationException extends Exception {

    private final String field;

    public SpecValidationException(String field, String message) {
        super(message);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
