package dev.berth.variables;

/** A variable request that cannot be done, named for what went wrong; the message is Nomad's error text. */
public class VariableException extends RuntimeException {

    /** What went wrong. */
    public enum Kind {
        /** The request is malformed or breaks a rule (path, size, lock TTL, namespace). */
        INVALID,
        /** The variable does not exist (for a lock operation). */
        NOT_FOUND,
        /** The variable's lock is held by someone else, lapsed, or not there. */
        LOCK_CONFLICT,
        /** A workload asked for a path its identity may not read. */
        PERMISSION_DENIED,
        /** The variable's items were sealed under a key this node no longer has. */
        UNREADABLE
    }

    private final Kind kind;

    public VariableException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
