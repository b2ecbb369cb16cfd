package dev.berth.alloc.runner;

/**
 * Called by {@link RunnerInbox#pollOrWait} at the two points where a concurrent offer can race a wait, so a test can
 * make an offer exactly there. Production inboxes use {@link #NONE}.
 */
@FunctionalInterface
interface InboxRaceHook {

    /** Does nothing. */
    InboxRaceHook NONE = point -> { };

    /** Where in {@link RunnerInbox#pollOrWait} the hook is called. */
    enum Point {
        /** The inbox was found empty; the callback is not registered yet. */
        BEFORE_CALLBACK_REGISTERED,
        /** The callback is registered; the inbox is not looked into again yet. */
        AFTER_CALLBACK_REGISTERED
    }

    void reached(Point point);
}
