package dev.berth.alloc.gc;

/** A forced GC of an alloc that is not terminal: Nomad's text, a 409 for the API (Nomad answers 500). */
public class NotEligibleForGcException extends Exception {

    public static final String MESSAGE = "No such allocation on client, or allocation not eligible for GC";

    public NotEligibleForGcException() {
        super(MESSAGE);
    }
}
