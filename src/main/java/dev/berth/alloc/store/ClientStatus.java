package dev.berth.alloc.store;

import java.util.Collection;

import dev.berth.alloc.task.TaskState;

/** Nomad's client statuses and {@code getClientStatus} (§5.3). */
public final class ClientStatus {

    public static final String PENDING = "pending";
    public static final String RUNNING = "running";
    public static final String COMPLETE = "complete";
    public static final String FAILED = "failed";
    public static final String LOST = "lost";

    private ClientStatus() {
    }

    /** Status and description, first match wins: failed, running, pending, complete. */
    public static String[] derive(Collection<TaskState> states) {
        boolean running = false;
        boolean pending = false;
        boolean dead = false;
        for (TaskState s : states) {
            if (s.dead() && s.failed()) {
                return new String[] {FAILED, "Failed tasks"};
            }
            running |= s.running();
            pending |= s.pending();
            dead |= s.dead();
        }
        if (running) {
            return new String[] {RUNNING, "Tasks are running"};
        }
        if (pending) {
            return new String[] {PENDING, "No tasks have started"};
        }
        if (dead) {
            return new String[] {COMPLETE, "All tasks have completed"};
        }
        return new String[] {PENDING, "No tasks have started"};
    }

    public static boolean terminal(String status) {
        return COMPLETE.equals(status) || FAILED.equals(status) || LOST.equals(status);
    }
}
