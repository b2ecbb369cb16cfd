package dev.berth.alloc.store;

import java.util.Collection;

import dev.berth.alloc.task.TaskState;

/** Nomad's client statuses, and its {@code getClientStatus} as {@link #derive}. */
public final class ClientStatus {

    public static final String PENDING = "pending";
    public static final String RUNNING = "running";
    public static final String COMPLETE = "complete";
    public static final String FAILED = "failed";
    public static final String LOST = "lost";

    private ClientStatus() {
    }

    /** A client status and its description ({@code ClientStatus}, {@code ClientDescription}). */
    public record Derived(String status, String description) {
    }

    /** Status and description, first match wins: failed, running, pending, complete. */
    public static Derived derive(Collection<TaskState> states) {
        boolean running = false;
        boolean pending = false;
        boolean dead = false;
        for (TaskState s : states) {
            if (s.dead() && s.failed()) {
                return new Derived(FAILED, "Failed tasks");
            }
            running |= s.running();
            pending |= s.pending();
            dead |= s.dead();
        }
        if (running) {
            return new Derived(RUNNING, "Tasks are running");
        }
        if (pending) {
            return new Derived(PENDING, "No tasks have started");
        }
        if (dead) {
            return new Derived(COMPLETE, "All tasks have completed");
        }
        return new Derived(PENDING, "No tasks have started");
    }

    public static boolean terminal(String status) {
        return COMPLETE.equals(status) || FAILED.equals(status) || LOST.equals(status);
    }
}
