package dev.berth.driver;

/**
 * A driver operation failed. {@code recoverable} follows Nomad's {@code RecoverableError}: the restart policy
 * may retry a recoverable start error; an unrecoverable one fails the task.
 */
public class DriverException extends Exception {

    private final boolean recoverable;

    public DriverException(String message, boolean recoverable) {
        super(message);
        this.recoverable = recoverable;
    }

    public DriverException(String message, boolean recoverable, Throwable cause) {
        super(message, cause);
        this.recoverable = recoverable;
    }

    public boolean recoverable() {
        return recoverable;
    }
}
