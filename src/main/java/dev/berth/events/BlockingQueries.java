package dev.berth.events;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Nomad's blocking queries over the {@link ChangeFeed}: a read with {@code ?index=N} answers as soon as what it watches
 * has an index above N, or when the wait runs out, whichever comes first; a read with index 0 answers at once. No thread
 * is held while a query waits.
 *
 * <p>When the agent stops, every waiting query is answered at once with what it reads then (and so is any that arrives
 * while the agent stops: {@link ChangeFeed#stop()}), before the web server's graceful shutdown begins: otherwise one open
 * long poll kept a {@code kill -TERM} waiting for the whole shutdown phase (20 s) and its client saw the connection drop.
 */
@Component
public class BlockingQueries {

    /** Nomad's default wait when a query gives an index but no wait. */
    public static final Duration DEFAULT_WAIT = Duration.ofMinutes(5);
    /** Nomad's cap on a query's wait. */
    public static final Duration MAX_WAIT = Duration.ofMinutes(10);
    /** Nomad adds up to wait/16 of random jitter so that many clients do not wake in step. */
    static final int JITTER_FRACTION = 16;

    private final ChangeFeed feed;
    private final RandomGenerator random;

    @Autowired
    public BlockingQueries(ChangeFeed feed) {
        this(feed, RandomGenerator.getDefault());
    }

    BlockingQueries(ChangeFeed feed, RandomGenerator random) {
        this.feed = feed;
        this.random = random;
    }

    /** The wait a query really gets: the default when none is given, capped, plus Nomad's jitter. */
    public Duration effectiveWait(Duration requested) {
        Duration wait = requested == null || requested.isZero() || requested.isNegative() ? DEFAULT_WAIT : requested;
        if (wait.compareTo(MAX_WAIT) > 0) {
            wait = MAX_WAIT;
        }
        long jitterBound = wait.toNanos() / JITTER_FRACTION;
        long jitter = jitterBound > 0 ? random.nextLong(jitterBound) : 0;
        return wait.plusNanos(jitter);
    }

    /**
     * Runs a blocking read. {@code read} gives the current value and the index it answers for; {@code watch} says which
     * changes may move that index. With {@code minIndex} 0, or when the value's index is already above it, the read
     * answers at once; otherwise when a watched change moves the value's index above {@code minIndex}, or with the
     * value as it then is when the (jittered) wait has passed.
     */
    public <T> CompletableFuture<Indexed<T>> query(long minIndex, Duration requestedWait, Predicate<Change> watch,
            Supplier<Indexed<T>> read) {
        Indexed<T> now = read.get();
        if (minIndex <= 0 || now.index() > minIndex) {
            return CompletableFuture.completedFuture(now);
        }
        long deadline = System.nanoTime() + effectiveWait(requestedWait).toNanos();
        return waitFor(minIndex, minIndex, deadline, watch, read);
    }

    private <T> CompletableFuture<Indexed<T>> waitFor(long minIndex, long after, long deadline, Predicate<Change> watch,
            Supplier<Indexed<T>> read) {
        Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
        return feed.awaitChange(after, watch, left).thenCompose(woken -> {
            Indexed<T> value = read.get();
            if (woken == 0 || value.index() > minIndex || System.nanoTime() >= deadline) {
                return CompletableFuture.completedFuture(value);
            }
            return waitFor(minIndex, woken, deadline, watch, read);
        });
    }
}
