package dev.berth.volume;

/** A dynamic host volume request that cannot be done, named for what went wrong; the message is Nomad's error text. */
public class HostVolumeException extends RuntimeException {

    /** What went wrong. */
    public enum Kind {
        /** The request is malformed, breaks a rule, or cannot be placed on this node. */
        INVALID,
        /** No volume has the ID. */
        NOT_FOUND,
        /** Allocations that are not terminal use the volume. */
        IN_USE
    }

    private final Kind kind;

    public HostVolumeException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
