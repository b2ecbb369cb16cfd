package dev.berth.config;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Gives heap back to the OS, for the collectors that never do it by themselves (Serial and Parallel shrink only at a
 * full GC; G1, ZGC and Shenandoah uncommit on their own and are left alone). The shipped {@code bin/jvm.options} use
 * Serial, the smallest collector for a daemon this size, with {@code -XX:-ShrinkHeapInSteps} so one full GC shrinks
 * the heap to {@code -XX:MaxHeapFreeRatio} at once.
 *
 * <p>Every {@link #PERIOD} (while a busy period waits for its quiet look, after {@link #FIRST_PERIOD}; until the
 * start-up's garbage was shed, the first {@value #START_LOOKS} times after {@link #START_PERIOD}) it takes a look
 * ({@link Policy}) and asks for one full GC when either
 * <ul>
 *   <li>the committed heap grew by half (and 16 MiB) since the last trim: a busy phase (many tasks sampled every
 *       second never leave a quiet minute) fills the old generation with garbage promoted early; or</li>
 *   <li>the agent went quiet (no collection during the last period) after a busy period since the last trim (one with
 *       at least {@value #BUSY_COLLECTIONS} collections): after start-up, and after allocations are placed or
 *       destroyed, it returns what they used; also when a {@link QuietRelease} has much to give back
 *       ({@link QuietRelease#pending()}: H2's chunks after allocations were destroyed in fewer collections). Once per
 *       quiet phase. An agent that is merely running its tasks (a young collection now and then) is not busy: there
 *       a full collection, the page-cache release and H2's compaction would cost more CPU than the little heap they
 *       give back.</li>
 * </ul>
 * Before a quiet trim it asks every {@link QuietRelease} to drop what it only keeps to go faster (H2's page cache):
 * a cache full of a busy phase's pages would otherwise stay on the heap for good. Off with
 * {@code berth.heap-trim=false}.
 */
@Component
public class HeapTrimmer implements SmartLifecycle {

    static final Duration PERIOD = Duration.ofSeconds(30);
    /**
     * The looks while a busy period waits for its quiet look come sooner: the first 10 s without a collection ends the
     * busy phase (a mass destroy gives its heap back 10-20 s after the last allocation stopped, not 30-60 s).
     */
    static final Duration FIRST_PERIOD = Duration.ofSeconds(10);
    /**
     * The looks right after start come sooner still, so the start-up's garbage (and the native memory behind it) is
     * given back within ~10 s of the agent being ready, not at ~30 s: start-up leaves one or two late collections, and
     * a look that sees one is not quiet, so 10 s looks found their quiet one only at the third.
     */
    static final Duration START_PERIOD = Duration.ofSeconds(5);
    static final int START_LOOKS = 4;
    private static final long SLACK_BYTES = 16L << 20;
    /** Collections within one period that make it a busy one (placing or destroying allocations, a burst of requests). */
    static final int BUSY_COLLECTIONS = 4;
    private static final Set<String> SELF_SHRINKING = Set.of("G1", "ZGC", "Shenandoah");
    private static final Logger log = LoggerFactory.getLogger(HeapTrimmer.class);

    /** Something that drops a cache when the agent is quiet; it fills again on use. */
    @FunctionalInterface
    public interface QuietRelease {
        /** Drops what is only kept for speed. Must not block for long; a failure is logged and ignored. */
        void release();

        /**
         * Whether it holds so much to give back that the next quiet look should trim even without a busy period (the
         * state database's chunks after many allocations were destroyed quickly). Asked at every look; cheap.
         */
        default boolean pending() {
            return false;
        }
    }

    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
    private final boolean enabled;
    private volatile Thread thread;
    private Policy policy;

    private final List<QuietRelease> releases;

    public HeapTrimmer(BerthProperties properties, ObjectProvider<QuietRelease> releases) {
        this.enabled = properties.heapTrim();
        this.releases = releases.orderedStream().toList();
    }

    @Override
    public void start() {
        if (!enabled || selfShrinking()) {
            return;
        }
        policy = new Policy(collections(), memory.getHeapMemoryUsage().getCommitted());
        thread = Thread.ofVirtual().name("berth-heap-trim").start(this::run);
    }

    private void run() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(policy.nextPeriod());
                check();
            }
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
        }
    }

    /** One look; returns whether it asked for a full GC. */
    boolean check() {
        long committed = memory.getHeapMemoryUsage().getCommitted();
        if (!policy.look(collections(), committed, releasePending())) {
            return false;
        }
        boolean quiet = policy.quiet();
        if (quiet) {
            releaseCaches();
        }
        System.gc(); // the one place the agent asks for a full collection
        long after = memory.getHeapMemoryUsage().getCommitted();
        policy.trimmed(collections(), after);
        log.debug("heap trimmed ({}): committed {} MB -> {} MB", quiet ? "quiet, caches released" : "grown",
                committed >> 20, after >> 20);
        return true;
    }

    private boolean releasePending() {
        for (QuietRelease release : releases) {
            try {
                if (release.pending()) {
                    return true;
                }
            } catch (RuntimeException e) {
                log.debug("a cache could not tell whether it has something to release", e);
            }
        }
        return false;
    }

    private void releaseCaches() {
        for (QuietRelease release : releases) {
            try {
                release.release();
            } catch (RuntimeException e) {
                log.debug("a cache could not be released before the heap trim", e);
            }
        }
    }

    /** When to trim, apart from the JVM so it is tested exactly: fed the collection count and committed heap. */
    static final class Policy {
        private long lastCollections;
        private long committedAfterTrim;
        private boolean busySinceTrim;
        private boolean quiet;
        /** Looks still to come after {@link #START_PERIOD}: counted down by each look, none after the first trim. */
        private int startLooks = START_LOOKS;

        Policy(long collections, long committed) {
            this.lastCollections = collections;
            this.committedAfterTrim = committed;
            this.busySinceTrim = true; // the start-up's garbage is shed at the first quiet look
        }

        /** One look; true when a full GC should run now. */
        boolean look(long collections, long committed) {
            return look(collections, committed, false);
        }

        /** One look, told whether a {@link QuietRelease} has much to give back (that counts as a busy period). */
        boolean look(long collections, long committed, boolean releasePending) {
            startLooks = Math.max(0, startLooks - 1);
            boolean quiet = collections == lastCollections;
            if (collections - lastCollections >= BUSY_COLLECTIONS || releasePending) {
                busySinceTrim = true;
            }
            lastCollections = collections;
            boolean grew = committed > committedAfterTrim + committedAfterTrim / 2 + SLACK_BYTES;
            this.quiet = quiet && busySinceTrim;
            return grew || this.quiet;
        }

        /**
         * How long until the next look: {@link #START_PERIOD} for the first {@value #START_LOOKS} looks while the
         * start-up's garbage waits for its first trim, {@link #FIRST_PERIOD} while a busy period waits for its quiet
         * look (so the busy phase's heap goes back soon after it ends), {@link #PERIOD} otherwise. A busy look needs
         * {@value #BUSY_COLLECTIONS} collections within one {@link #PERIOD}, whatever the period of the look: the short
         * looks only come after one.
         */
        Duration nextPeriod() {
            if (startLooks > 0) {
                return START_PERIOD;
            }
            return busySinceTrim ? FIRST_PERIOD : PERIOD;
        }

        /** Whether the last look found the agent quiet after a busy phase (not just a grown heap during one). */
        boolean quiet() {
            return quiet;
        }

        /** The full GC ran: the count and committed heap right after it. */
        void trimmed(long collections, long committed) {
            lastCollections = collections;
            committedAfterTrim = committed;
            busySinceTrim = false;
            startLooks = 0;
        }
    }

    private long collections() {
        long total = 0;
        for (GarbageCollectorMXBean collector : collectors) {
            total += Math.max(0, collector.getCollectionCount());
        }
        return total;
    }

    private boolean selfShrinking() {
        return collectors.stream().anyMatch(c -> SELF_SHRINKING.stream().anyMatch(c.getName()::contains));
    }

    @Override
    public void stop() {
        Thread running = thread;
        thread = null;
        if (running != null) {
            running.interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return thread != null;
    }

    /** Last to start: the start-up's own collections are over by then. */
    @Override
    public int getPhase() {
        return Integer.MAX_VALUE - 1;
    }
}
