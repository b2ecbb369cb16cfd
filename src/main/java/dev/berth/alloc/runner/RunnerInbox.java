package dev.berth.alloc.runner;

import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The alloc runner's inbox (task deaths, wake-ups) with, instead of a thread parked on it, at most one callback that the
 * next message runs. An allocation whose tasks run then costs no parked thread and no stack while it waits.
 */
final class RunnerInbox {

    /** A part of the run loop: true when the run is over, false when it waits for the inbox (a new thread goes on). */
    @FunctionalInterface
    interface Segment {
        boolean run() throws InterruptedException;
    }

    private final ConcurrentLinkedDeque<Object> messages = new ConcurrentLinkedDeque<>();
    private final AtomicReference<Runnable> waiter = new AtomicReference<>();
    private final InboxRaceHook raceHook;

    RunnerInbox() {
        this(InboxRaceHook.NONE);
    }

    RunnerInbox(InboxRaceHook raceHook) {
        this.raceHook = raceHook;
    }

    /** Adds a message; runs the waiting callback (on this thread: it must be short), if there is one. */
    void offer(Object message) {
        messages.offer(message);
        Runnable w = waiter.getAndSet(null);
        if (w != null) {
            w.run();
        }
    }

    /**
     * The next message; or null when there is none, and then {@code onMessage} runs once at the next {@link #offer} (or
     * already ran: a message that came in meanwhile is left for it). One caller at a time.
     */
    Object pollOrWait(Runnable onMessage) {
        Object m = messages.poll();
        if (m != null) {
            return m;
        }
        raceHook.reached(InboxRaceHook.Point.BEFORE_CALLBACK_REGISTERED);
        waiter.set(onMessage);
        raceHook.reached(InboxRaceHook.Point.AFTER_CALLBACK_REGISTERED);
        m = messages.poll();
        if (m == null) {
            return null;
        }
        if (waiter.compareAndSet(onMessage, null)) {
            return m;
        }
        // an offer took the callback after this message came in: the callback's run takes the message
        messages.offerFirst(m);
        return null;
    }
}
