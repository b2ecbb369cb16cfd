package dev.berth.namespace;

/** A namespace request that cannot be done, named for what went wrong; the message is Nomad's error text. */
public class NamespaceException extends RuntimeException {

    /** What went wrong. */
    public enum Kind {
        /** The namespace given is not valid (name, description, an enterprise-only field), or the request is not. */
        INVALID,
        /** No such namespace. */
        NOT_FOUND,
        /** Objects still live in the namespace, so it cannot be deleted. */
        NOT_EMPTY
    }

    private final Kind kind;

    public NamespaceException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
