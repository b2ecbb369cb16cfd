package dev.berth.driver;

/**
 * A task's driver config does not match the driver's schema (unknown key, wrong type, missing required key).
 * The message names the field, e.g. {@code No argument or block type is named "bogus".}
 */
public class TaskConfigValidationException extends Exception {

    private final String field;

    public TaskConfigValidationException(String field, String message) {
        super(message);
        this.field = field;
    }

    /** The offending config key. */
    public String field() {
        return field;
    }
}
