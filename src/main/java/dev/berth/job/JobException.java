package dev.berth.job;

/** A job request that cannot be done: {@code status} is the HTTP status, the message Nomad's error text. */
public class JobException extends Exception {

    private final int status;

    public JobException(int status, String message) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
