package dev.berth.alloc.task;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Nomad's {@code TaskState}: pending → running → dead (a restart goes back to pending). Immutable; every change makes a new
 * value that is persisted.
 *
 * @param state       pending, running or dead
 * @param failed      whether any event failed the task
 * @param restarts    number of {@code Restarting} events
 * @param lastRestart time of the last restart, or null
 * @param startedAt   last transition into running, or null
 * @param finishedAt  when it became dead, or null
 * @param events      the last {@value #MAX_EVENTS} events, oldest first
 */
public record TaskState(String state, boolean failed, long restarts, Instant lastRestart, Instant startedAt, Instant finishedAt,
                        List<TaskEvent> events) {

    public static final String PENDING = "pending";
    public static final String RUNNING = "running";
    public static final String DEAD = "dead";
    public static final int MAX_EVENTS = 10;

    public TaskState {
        Objects.requireNonNull(state, "'state' must not be null");
        events = events == null ? List.of() : List.copyOf(events);
    }

    public static TaskState initial() {
        return new TaskState(PENDING, false, 0, null, null, null, List.of());
    }

    public boolean dead() {
        return DEAD.equals(state);
    }

    public boolean running() {
        return RUNNING.equals(state);
    }

    public boolean pending() {
        return PENDING.equals(state);
    }

    /** Appends an event as Nomad's {@code appendEvent}: keeps 10, counts restarts, marks failed. */
    public TaskState withEvent(TaskEvent event) {
        List<TaskEvent> list = new ArrayList<>(events);
        list.add(event);
        while (list.size() > MAX_EVENTS) {
            list.removeFirst();
        }
        boolean restarting = TaskEvent.RESTARTING.equals(event.type());
        return new TaskState(state, failed || event.failsTask(), restarting ? restarts + 1 : restarts,
                restarting ? event.time() : lastRestart, startedAt, finishedAt, list);
    }

    /** Moves to {@code newState}: StartedAt on each entry to running, FinishedAt once on dead. */
    public TaskState withState(String newState, Instant now) {
        Instant started = RUNNING.equals(newState) && !RUNNING.equals(state) ? now : startedAt;
        Instant finished = DEAD.equals(newState) && finishedAt == null ? now : finishedAt;
        return new TaskState(newState, failed, restarts, lastRestart, started, finished, events);
    }

    public TaskState withFailed() {
        return new TaskState(state, true, restarts, lastRestart, startedAt, finishedAt, events);
    }
}
