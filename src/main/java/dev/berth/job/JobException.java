package dev.berth.job;

/** A job request that cannot be done, named for what went wrong; the message is Nomad's error text. */
public class JobException extends Exception {

    /** What went wrong. */
    public enum Kind {
        /** The job, dispatch or force request is not valid for this job. */
        INVALID,
        /** No such job (or evaluation). */
        NOT_FOUND,
        /** {@code EnforceIndex}: the job changed since the index the client gave. */
        STALE_INDEX
    }

    private final Kind kind;

    public JobException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
