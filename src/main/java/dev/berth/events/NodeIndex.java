package dev.berth.events;

import org.springframework.stereotype.Component;

/**
 * The node's modify index: one monotonic counter for everything a Nomad client watches on this agent (allocations, the
 * node, jobs, evaluations). It plays the role of the Raft index of a Nomad server of one: every change gets the next
 * value, and {@code X-Nomad-Index} / {@code ModifyIndex} / blocking queries are expressed in it.
 *
 * <p>Indexes are never reused after a restart, crash included: the store records a high-water mark a block ahead, so a
 * write to the database is needed only once every {@link #BLOCK} indexes. After a crash the counter resumes above the
 * last recorded mark, which may skip up to a block of values; skipping is harmless, reusing would not be.
 */
@Component
public class NodeIndex {

    /** How many indexes one write of the high-water mark covers. */
    static final long BLOCK = 1024;

    private final IndexStore store;
    private long last;
    private long reserved;

    public NodeIndex(IndexStore store) {
        this.store = store;
        long highWater = store.highWater();
        if (highWater < 0) {
            throw new IllegalStateException("stored index high-water mark is negative: " + highWater);
        }
        this.last = highWater;
        this.reserved = highWater;
    }

    /** Hands out the next index (strictly greater than every index handed out before, in this or an earlier run). */
    public synchronized long next() {
        long next = last + 1;
        if (next > reserved) {
            store.reserveThrough(next + BLOCK - 1);
            reserved = next + BLOCK - 1;
        }
        last = next;
        return next;
    }

    /** The last index handed out; 0 on a new node before the first change. */
    public synchronized long current() {
        return last;
    }
}
