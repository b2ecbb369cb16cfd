package dev.berth.alloc.fs;

/** Why a filesystem API request is refused; the API maps each {@link Kind} to a status code. */
public class FsAccessException extends RuntimeException {

    /** What went wrong. */
    public enum Kind {
        /** The path leaves the allocation directory ({@code ..}, symlink out): 403. */
        ESCAPE,
        /** A read under a task's {@code secrets/} or {@code private/}: 403. */
        FORBIDDEN,
        /** Malformed input (NUL byte, over-long path, directory where a file is needed, bad offset): 400. */
        MALFORMED,
        /** The allocation or the file does not exist: 404. */
        NOT_FOUND
    }

    private final Kind kind;

    public FsAccessException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
