package dev.berth.driver;

/** What a driver did with a new size for a running task ({@link TaskDriver#resize}). */
public sealed interface ResizeResult {

    /** The running task has the new size now; {@code detail} says what was written (for the event and the log). */
    record Applied(String detail) implements ResizeResult {
    }

    /** The task keeps its old size; {@code reason} says why (the caller then replaces the task). */
    record Refused(String reason) implements ResizeResult {
    }
}
