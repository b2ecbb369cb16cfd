package dev.berth.alloc.runner;

/**
 * What the alloc runner's loop is told through its inbox. Every message makes it apply a queued update and look again
 * whether its task runners are all done; {@link TaskDied} also applies the sibling and leader rules ({@link TaskDeaths}).
 */
sealed interface AllocMessage {

    /** A task of this alloc became dead. */
    record TaskDied(String task) implements AllocMessage {
    }

    /** A task runner's run is over. */
    record TaskRunOver(String task) implements AllocMessage {
    }

    /** An update was queued ({@link AllocRunner#update}); the newest one is applied. */
    record UpdateQueued() implements AllocMessage {
    }

    /** The agent shuts down: the loop ends, the tasks keep running. */
    record ShuttingDown() implements AllocMessage {
    }
}
