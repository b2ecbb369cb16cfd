package dev.berth.state;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.MVStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

import dev.berth.config.HeapTrimmer;
import dev.berth.config.Sleeper;

/**
 * Runs H2's own chunk compaction when the agent is quiet ({@link HeapTrimmer}), the housekeeping H2's background
 * writer would do if it ran. With {@code WRITE_DELAY=0} (every commit written before it returns) H2 starts no
 * background writer, so nothing ever rewrites a chunk that still holds a few live pages: every commit writes a chunk,
 * and each chunk with one page still in use stays in the file and on the heap (its record, occupancy bits and table of
 * contents), so heap and state file grow with every allocation ever created and destroyed.
 *
 * <p>{@link MVStore#compact(int, int)} copies the live pages of sparsely used chunks into new pages, then a commit
 * writes them as one chunk, as any other commit does: the data do not change, and the old chunks, no longer
 * referenced, are dropped ({@link #dropUnusedChunks}). H2's {@code RETENTION_TIME} is left as it is: chunks younger
 * than it (by their creation time) are neither rewritten nor dropped, exactly as with H2's own background compaction,
 * which is what keeps a crash from losing anything on a file system that has not flushed its writes yet. So that the
 * last busy seconds' chunks go too, a follow-up looks again every {@link #FOLLOW_UP_POLL} (each look rewrites the
 * chunks that have come of age since the last) until the store holds no more than {@link #PENDING_CHUNKS} chunks or
 * every chunk the first pass saw is old enough and was looked at: the compacted state comes as soon as H2 allows it
 * (within a poll of the busy phase's last chunk turning {@code RETENTION_TIME} old), not a full retention time after
 * the quiet look. Meanwhile {@link #pending()} says no (the follow-up is on it); once it has dropped many chunks it
 * says yes once, so the heap trimmer's next quiet look gives their heap back to the OS. Runs before
 * {@link H2CacheRelease}, so the pages it reads leave the cache too. Not reachable through SQL (H2 compacts an open
 * store only from its background writer), hence H2's embedded session; a remote or other database is left alone.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class H2StoreCompaction implements HeapTrimmer.QuietRelease {

    /** Compact while less than this share (%) of the chunks' space is live: H2's {@code autoCompactFillRate}. */
    static final int TARGET_FILL_RATE = 90;
    /**
     * Live bytes rewritten per round (each round's commit writes them as one chunk). Small enough that the chunk fits
     * the 1 MiB write buffer H2 starts with: H2 pools its write buffers and keeps one grown for a bigger chunk (up to
     * 4 MiB) for good, so one big round (as H2's own {@code compactFile} does) would leave its buffer on the heap.
     */
    static final int BYTES_PER_ROUND = 512 << 10;
    /** Rounds at most per pass (32 MiB of live pages), each rewriting the sparsest chunks up to the bytes above. */
    static final int MAX_ROUNDS = 64;
    /** The follow-up's last look comes this long after the retention time, counted from the first pass. */
    static final int FOLLOW_UP_MARGIN_MS = 1_000;
    /** How often the follow-up looks for chunks that have come of age. */
    static final Duration FOLLOW_UP_POLL = Duration.ofSeconds(5);
    /** Chunks in the store above which a quiet look compacts even without a busy period (a few remain after one). */
    static final int PENDING_CHUNKS = 64;
    private static final Logger log = LoggerFactory.getLogger(H2StoreCompaction.class);

    private final DataSource dataSource;
    private final H2CacheRelease cacheRelease;
    private final Duration poll;
    /** How the follow-up waits (a test records the waits). */
    private final Sleeper sleeper;
    private final AtomicBoolean followUpPending = new AtomicBoolean();
    /** The follow-up dropped many chunks since the last quiet look: their heap goes back at the next one. */
    private volatile boolean droppedSinceRelease;

    @Autowired
    H2StoreCompaction(DataSource dataSource, H2CacheRelease cacheRelease) {
        this(dataSource, cacheRelease, FOLLOW_UP_POLL, Sleeper.system());
    }

    H2StoreCompaction(DataSource dataSource, H2CacheRelease cacheRelease, Duration poll, Sleeper sleeper) {
        this.dataSource = dataSource;
        this.cacheRelease = cacheRelease;
        this.poll = poll;
        this.sleeper = sleeper;
    }

    /**
     * Whether the store holds more than {@link #PENDING_CHUNKS} chunks (many small commits since the last compaction),
     * or the follow-up has dropped that many since the last quiet look; never while the follow-up still runs (it is on
     * those chunks).
     */
    @Override
    public boolean pending() {
        if (followUpPending.get()) {
            return false;
        }
        if (droppedSinceRelease) {
            return true;
        }
        try (Connection connection = dataSource.getConnection()) {
            return store(connection).map(H2StoreCompaction::chunks).orElse(-1) > PENDING_CHUNKS;
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }

    @Override
    public void release() {
        droppedSinceRelease = false;
        Pass first = pass();
        if (first != null && followUpPending.compareAndSet(false, true)) {
            Thread.ofVirtual().name("berth-h2-compact").start(() -> followUp(first));
        }
    }

    /** Whether a follow-up is still looking for chunks that come of age. */
    boolean followingUp() {
        return followUpPending.get();
    }

    /**
     * The chunks the busy phase wrote during its last {@code RETENTION_TIME} were too young for the first pass: they
     * go as they come of age (H2's background writer would get to them on its turns), then the page cache is emptied
     * of what the passes read, as at the quiet look.
     */
    private void followUp(Pass first) {
        long start = System.nanoTime();
        int chunks = first.chunks();
        int dropped = 0;
        try {
            Duration wait;
            while ((wait = nextWait(elapsedMs(start), chunks, first.retentionMs(), poll)) != null) {
                sleeper.sleep(wait);
                Pass pass = pass();
                if (pass == null) {
                    return;
                }
                dropped += Math.max(0, chunks - pass.chunks());
                chunks = pass.chunks();
            }
            cacheRelease.release();
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.debug("the H2 page cache could not be emptied after the compaction", e);
        } finally {
            droppedSinceRelease = dropped > PENDING_CHUNKS;
            followUpPending.set(false);
        }
    }

    private static long elapsedMs(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    /**
     * The follow-up's next wait, or null when it is done: the store holds no more than {@link #PENDING_CHUNKS} chunks
     * (compacted: a few always remain), or its last look came after every chunk the first pass saw was
     * {@code RETENTION_TIME} old (plus {@link #FOLLOW_UP_MARGIN_MS}). Never waits past that moment.
     */
    static Duration nextWait(long elapsedMs, int chunks, int retentionMs, Duration poll) {
        long left = retentionMs + FOLLOW_UP_MARGIN_MS - elapsedMs;
        if (chunks <= PENDING_CHUNKS || left <= 0) {
            return null;
        }
        return Duration.ofMillis(Math.min(poll.toMillis(), left));
    }

    /** One compaction; returns H2's retention time in ms, or -1 when there was nothing to compact or it failed. */
    int compactNow() {
        Pass pass = pass();
        return pass == null ? -1 : pass.retentionMs();
    }

    /** What one compaction left: H2's retention time and the chunks in the store. */
    private record Pass(int retentionMs, int chunks) {
    }

    /** One compaction; null when there was no embedded store or it failed. */
    private Pass pass() {
        try (Connection connection = dataSource.getConnection()) {
            Optional<MVStore> found = store(connection);
            if (found.isEmpty()) {
                log.debug("no embedded H2 store to compact");
                return null;
            }
            MVStore store = found.get();
            long start = System.nanoTime();
            int before = chunks(store);
            int rounds = compact(store);
            int after = chunks(store);
            log.debug("H2 store compacted in {} round(s), {} ms: {} -> {} chunks", rounds,
                    (System.nanoTime() - start) / 1_000_000, before, after);
            return new Pass(Math.max(0, store.getRetentionTime()), after);
        } catch (SQLException | RuntimeException e) {
            log.debug("the H2 store could not be compacted", e);
            return null;
        }
    }

    /**
     * Rewrites sparsely used chunks and commits, then drops the chunks that are no longer used and commits the
     * shortened chunk list, round after round until H2 finds nothing to rewrite or a round leaves no fewer chunks.
     * Returns the rounds that rewrote anything.
     */
    static int compact(MVStore store) {
        int rounds = 0;
        int chunks = chunks(store);
        while (rounds < MAX_ROUNDS && !store.isClosed() && store.compact(TARGET_FILL_RATE, BYTES_PER_ROUND)) {
            store.commit(); // writes what this round rewrote
            dropUnusedChunks(store); // and drops the chunks it emptied, so that the count below sees them go
            rounds++;
            int left = chunks(store);
            if (left >= chunks) {
                break; // a store of a few chunks: each round only rewrites the last ones again
            }
            chunks = left;
        }
        dropUnusedChunks(store);
        return rounds;
    }

    /**
     * H2 drops unused chunks (old enough, no live page) at the start of a commit that has something to write, so the
     * ones the last round emptied would stay until the agent writes again. This is that step, in the context H2 runs
     * it in when it moves chunks (the store's lock and its serialization lock), then a commit that writes the chunk
     * list without them. A failure inside makes H2 close the store, as it would at any commit.
     */
    static void dropUnusedChunks(MVStore store) {
        if (!store.isClosed() && store.getFileStore() != null) {
            store.executeFilestoreOperation(store.getFileStore()::dropUnusedChunks);
            store.commit();
        }
    }

    /** The store under an embedded H2 connection (pooled connections unwrap to it). */
    static Optional<MVStore> store(Connection connection) throws SQLException {
        if (!connection.isWrapperFor(JdbcConnection.class)
                || !(connection.unwrap(JdbcConnection.class).getSession() instanceof SessionLocal session)
                || session.getDatabase().getStore() == null) {
            return Optional.empty();
        }
        return Optional.of(session.getDatabase().getStore().getMvStore());
    }

    /** How many chunks the store holds (H2's {@code info.CHUNK_COUNT}). */
    static int chunks(MVStore store) {
        int[] count = {-1};
        if (store.getFileStore() != null) {
            store.getFileStore().populateInfo((name, value) -> {
                if (name.equals("info.CHUNK_COUNT")) {
                    count[0] = Integer.parseInt(value);
                }
            });
        }
        return count[0];
    }
}
