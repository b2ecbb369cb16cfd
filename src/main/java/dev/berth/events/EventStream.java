package dev.berth.events;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * One subscriber of Nomad's event stream, run on the caller's (virtual) thread: it reads the {@link ChangeFeed}'s
 * journal from its own cursor, so a publisher never waits for a subscriber and never queues anything per
 * subscriber. A subscriber that reads too slowly is dropped once the journal has discarded changes it has not seen
 * yet ({@link End#FELL_BEHIND}); it resubscribes with the last index it got.
 *
 * <p>Where a stream starts (Nomad's {@code EventBroker.Subscribe}): index 0 replays everything the journal holds;
 * index {@code n} starts at the first change with an index of at least {@code n} (Nomad's "closest" item: a change at
 * exactly {@code n} is sent again); an index older than the journal starts at the oldest change it still holds.
 */
public final class EventStream {

    /** Where the stream's frames go. A write that fails (client gone) ends the stream. */
    public interface Sink {

        /** Writes changes, oldest first, each with its own index. */
        void changes(List<Change> changes) throws IOException;

        /** Writes Nomad's {@code {}} heartbeat. */
        void heartbeat() throws IOException;
    }

    /** Why a stream ended. */
    public enum End {
        /** A write failed: the client went away (or its connection timed out). */
        CLIENT_GONE,
        /** The journal discarded changes this subscriber had not read yet. */
        FELL_BEHIND,
        /** The agent is stopping. */
        STOPPED
    }

    /** How long one wait for a change lasts at most, so a stopping agent ends idle streams promptly. */
    static final Duration MAX_WAIT_SLICE = Duration.ofMillis(500);

    private final ChangeFeed feed;
    private final Predicate<Change> filter;
    private final Duration heartbeat;
    private final int batch;
    private final BooleanSupplier stopped;
    private final LongSupplier nanoTime;
    private long cursor;

    /**
     * @param index   Nomad's {@code index} query parameter (0: from the oldest change held)
     * @param batch   how many changes one read of the journal takes at most
     * @param stopped true once the agent stops
     */
    public EventStream(ChangeFeed feed, Predicate<Change> filter, long index, Duration heartbeat, int batch,
            BooleanSupplier stopped) {
        this(feed, filter, index, heartbeat, batch, stopped, System::nanoTime);
    }

    EventStream(ChangeFeed feed, Predicate<Change> filter, long index, Duration heartbeat, int batch,
            BooleanSupplier stopped, LongSupplier nanoTime) {
        if (index < 0) {
            throw new IllegalArgumentException("index must not be negative: " + index);
        }
        if (heartbeat.isZero() || heartbeat.isNegative() || batch < 1) {
            throw new IllegalArgumentException("heartbeat and batch must be positive");
        }
        this.feed = feed;
        this.filter = filter;
        this.heartbeat = heartbeat;
        this.batch = batch;
        this.stopped = stopped;
        this.nanoTime = nanoTime;
        long wanted = index == 0 ? 0 : index - 1;
        this.cursor = Math.max(wanted, feed.discardedThrough());
    }

    /** The index of the last change this stream has passed (sent or filtered out). */
    public long cursor() {
        return cursor;
    }

    /** Sends an initial heartbeat, then changes and heartbeats until the client goes, falls behind or the agent stops. */
    public End run(Sink sink) {
        try {
            sink.heartbeat();
            long nextHeartbeat = nanoTime.getAsLong() + heartbeat.toNanos();
            while (true) {
                if (stopped.getAsBoolean()) {
                    return End.STOPPED;
                }
                if (fellBehind()) {
                    return End.FELL_BEHIND;
                }
                long horizon = feed.horizon();
                List<Change> changes = feed.changesAfter(cursor, filter, batch);
                if (fellBehind()) {
                    // the read may have started above a change discarded meanwhile: never skip silently
                    return End.FELL_BEHIND;
                }
                if (!changes.isEmpty()) {
                    sink.changes(changes);
                }
                long last = changes.isEmpty() ? cursor : changes.getLast().index();
                cursor = changes.size() < batch ? Math.max(Math.max(cursor, horizon), last) : last;
                if (nanoTime.getAsLong() - nextHeartbeat >= 0) {
                    sink.heartbeat();
                    nextHeartbeat = nanoTime.getAsLong() + heartbeat.toNanos();
                }
                if (changes.size() < batch) {
                    awaitNext(nextHeartbeat);
                }
            }
        } catch (IOException e) {
            return End.CLIENT_GONE;
        }
    }

    /** True when the journal has discarded a change above the cursor, one this subscriber never saw. */
    private boolean fellBehind() {
        return feed.discardedThrough() > cursor;
    }

    private void awaitNext(long nextHeartbeat) {
        long untilHeartbeat = Math.max(0, nextHeartbeat - nanoTime.getAsLong());
        long wait = Math.min(untilHeartbeat, MAX_WAIT_SLICE.toNanos());
        if (wait == 0) {
            return;
        }
        try {
            long woken = feed.awaitChange(cursor, filter, Duration.ofNanos(wait)).get(wait + MAX_WAIT_SLICE.toNanos(),
                    TimeUnit.NANOSECONDS);
            if (woken > feed.horizon()) {
                // published above an index still being written: readers wait for the horizon to pass it
                LockSupport.parkNanos(Duration.ofMillis(2).toNanos());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // the next round reads the journal again
        }
    }
}
