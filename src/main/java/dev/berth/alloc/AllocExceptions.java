package dev.berth.alloc;

/** The errors the alloc service reports to its callers (mapped to HTTP statuses by the API). */
public final class AllocExceptions {

    private AllocExceptions() {
    }

    /** No such allocation: 404 ({@code Unknown allocation "<id>"}). */
    public static class UnknownAllocException extends Exception {
        public UnknownAllocException(String id) {
            super("Unknown allocation \"" + id + "\"");
        }
    }

    /** No such task in the allocation: 404 ({@code Task not found}). */
    public static class UnknownTaskException extends Exception {
        public UnknownTaskException() {
            super("Task not found");
        }
    }

    /** A request that contradicts itself: 400. */
    public static class BadRequestException extends Exception {
        public BadRequestException(String message) {
            super(message);
        }
    }

    /** A lifecycle call that the alloc's state does not allow (task not running, alloc terminal): 409. */
    public static class ConflictException extends Exception {
        public ConflictException(String message) {
            super(message);
        }
    }
}
