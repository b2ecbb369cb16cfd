package dev.berth.events;

/**
 * Port: where the node's modify index keeps its high-water mark, so that an index handed out before a restart (or a
 * crash) is never handed out again. Implemented in {@code state} (one H2 row).
 */
public interface IndexStore {

    /** The highest index that may have been handed out so far; 0 on a new node. */
    long highWater();

    /** Durably records that indexes up to and including {@code highWater} may now be handed out. */
    void reserveThrough(long highWater);
}
