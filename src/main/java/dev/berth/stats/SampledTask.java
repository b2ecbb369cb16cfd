package dev.berth.stats;

import java.util.concurrent.atomic.AtomicReference;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.stats.TaskStatsTarget.TaskKey;

/**
 * One task registered with the {@link TaskStatsCollector}: its sampler, its latest snapshot, and one {@link State} that
 * says who may touch the sampler. Three threads meet here: the tick claims the task for a read, a read thread samples
 * it, and a registration or removal (an allocation's own thread) takes it out of the collector. Whoever moves the state
 * is the only one who acts on that move, so a sampler is never read by two threads at once, never read after its
 * reader is closed, and closed exactly once, and no one waits for a stuck read:
 *
 * <pre>
 *   who             from              to
 *   tick            IDLE            → QUEUED            claim: a read is due
 *   read thread     QUEUED          → READING → IDLE    read: samples, then hands it back
 *   tick            QUEUED          → IDLE              unclaim: its read did not start by the deadline
 *   remover         IDLE            → CLOSED            remove: closes the reader at once
 *   remover         QUEUED          → REMOVED_QUEUED    remove: the read thread or the tick's unclaim closes it
 *   remover         READING         → REMOVED_READING   remove: the read's end closes it
 *   read / tick     REMOVED_QUEUED  → CLOSED            closes the reader, nothing read
 *   read thread     REMOVED_READING → CLOSED            closes the reader, the sample is dropped
 * </pre>
 *
 * The move to {@code CLOSED} closes the reader's files. Thread-safe.
 */
final class SampledTask {

    private static final Logger log = LoggerFactory.getLogger(TaskStatsCollector.class);

    enum State {
        /** Registered, no read claimed. */
        IDLE,
        /** Claimed by a tick; its read has not started. */
        QUEUED,
        /** A read thread samples it. */
        READING,
        /** Taken out of the collector while queued: the read thread that would start it, or the tick, closes it. */
        REMOVED_QUEUED,
        /** Taken out of the collector while read: the read's end closes it. */
        REMOVED_READING,
        /** Out of the collector, its reader closed: never read again. */
        CLOSED
    }

    private final TaskKey key;
    private final TaskSampler sampler;
    private final AtomicReference<State> state = new AtomicReference<>(State.IDLE);
    /** The latest sample; null before the first. Written by the thread in {@code READING}, read by the publish. */
    private volatile TaskStatsSnapshot snapshot;
    /** Whether a failed read was logged (once per task). Touched only by the thread in {@code READING}. */
    private boolean failureLogged;

    SampledTask(TaskKey key, TaskSampler sampler) {
        this.key = key;
        this.sampler = sampler;
    }

    /** A task re-registered under {@code replaced}'s key: the old sample stays published until this one's first. */
    SampledTask(TaskKey key, TaskSampler sampler, SampledTask replaced) {
        this(key, sampler);
        this.snapshot = replaced.snapshot;
    }

    TaskKey key() {
        return key;
    }

    State state() {
        return state.get();
    }

    /** The latest snapshot while the task is in the collector; null before the first and once it was removed. */
    TaskStatsSnapshot snapshot() {
        return removed() ? null : snapshot;
    }

    /** The tick claims a read: false when a read of an earlier tick still runs (or it was removed). */
    boolean claim() {
        return state.compareAndSet(State.IDLE, State.QUEUED);
    }

    /** The tick gives back a claim whose read did not start (its deadline passed, or the tick was interrupted). */
    void unclaim() {
        if (!state.compareAndSet(State.QUEUED, State.IDLE)) {
            closeIf(State.REMOVED_QUEUED);
        }
    }

    /** On a read thread: samples the task if it is still queued, then hands it back (or closes it if removed). */
    void read() {
        if (!state.compareAndSet(State.QUEUED, State.READING)) {
            closeIf(State.REMOVED_QUEUED); // removed before its read started; or the claim was given back
            return;
        }
        try {
            TaskStatsSnapshot sampled = sampler.sample();
            if (state.get() == State.READING) { // not removed meanwhile
                snapshot = sampled;
            }
        } catch (Exception | LinkageError e) {
            if (!failureLogged) {
                failureLogged = true;
                log.warn("Cannot read stats of task {}/{}: {}", key.allocId(), key.task(), e.toString());
            }
        } finally {
            if (!state.compareAndSet(State.READING, State.IDLE)) {
                closeIf(State.REMOVED_READING); // unregistered or replaced while reading: its files are not needed
            }
        }
    }

    /**
     * Takes the task out of the collector: closes its reader now unless a read is queued or running (a stuck read must
     * not block the caller); then that read's end, or the tick giving the claim back, closes it.
     */
    void remove() {
        while (true) {
            State now = state.get();
            State next = switch (now) {
                case IDLE -> State.CLOSED;
                case QUEUED -> State.REMOVED_QUEUED;
                case READING -> State.REMOVED_READING;
                case REMOVED_QUEUED, REMOVED_READING, CLOSED -> null;
            };
            if (next == null) {
                return; // removed already
            }
            if (state.compareAndSet(now, next)) {
                if (next == State.CLOSED) {
                    sampler.close();
                }
                return;
            }
        }
    }

    private boolean removed() {
        State now = state.get();
        return now == State.REMOVED_QUEUED || now == State.REMOVED_READING || now == State.CLOSED;
    }

    private void closeIf(State removed) {
        if (state.compareAndSet(removed, State.CLOSED)) {
            sampler.close();
        }
    }
}
