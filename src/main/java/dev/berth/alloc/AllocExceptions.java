package dev.berth.alloc;

/** The errors the alloc service reports to its callers, named for what went wrong (the API maps them in one place). */
public final class AllocExceptions {

    private AllocExceptions() {
    }

    /** No such allocation ({@code Unknown allocation "<id>"}, Nomad's text). */
    public static class UnknownAllocException extends Exception {
        public UnknownAllocException(String id) {
            super("Unknown allocation \"" + id + "\"");
        }
    }

    /** No such task in the allocation ({@code Task not found}, Nomad's text). */
    public static class UnknownTaskException extends Exception {
        public UnknownTaskException() {
            super("Task not found");
        }
    }

    /** A restart or signal request that contradicts itself or names no valid signal. */
    public static class InvalidLifecycleRequestException extends Exception {
        public InvalidLifecycleRequestException(String message) {
            super(message);
        }
    }

    /** A lifecycle call that the alloc's state does not allow (task not running, alloc terminal). */
    public static class AllocStateException extends Exception {
        public AllocStateException(String message) {
            super(message);
        }
    }
}
