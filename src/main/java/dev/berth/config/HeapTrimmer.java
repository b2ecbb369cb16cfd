package dev.berth.config;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Gives heap back to the OS once the agent goes quiet, for the collectors that never do it by themselves (Serial and
 * Parallel shrink only at a full GC; G1, ZGC and Shenandoah uncommit on their own and are left alone). The shipped
 * {@code bin/jvm.options} use Serial, the smallest collector for a daemon this size.
 *
 * <p>Every {@link #PERIOD} (the first three times after {@link #FIRST_PERIOD}): when no collection ran during the last period (nothing allocates much: no starts, no
 * destroys, no request bursts) and the committed heap grew by half since the last trim, it asks for one full GC; with
 * {@code -XX:MaxHeapFreeRatio} the JVM then uncommits the free part. After start that sheds the start-up garbage;
 * after allocations are destroyed it returns what they used. It runs at most once per quiet phase. Off with
 * {@code -Dberth.heap-trim=false}.
 */
@Component
public class HeapTrimmer implements SmartLifecycle {

    static final Duration PERIOD = Duration.ofSeconds(60);
    /** The first looks come sooner, so the start-up garbage is shed soon after the agent is ready. */
    static final Duration FIRST_PERIOD = Duration.ofSeconds(10);
    private static final int FIRST_LOOKS = 3;
    private static final long SLACK_BYTES = 16L << 20;
    private static final Set<String> SELF_SHRINKING = Set.of("G1", "ZGC", "Shenandoah");
    private static final Logger log = LoggerFactory.getLogger(HeapTrimmer.class);

    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
    private final boolean enabled;
    private volatile Thread thread;
    private long lastCollections;
    private long committedAfterTrim;

    public HeapTrimmer(BerthProperties properties) {
        this.enabled = properties.heapTrim();
    }

    @Override
    public void start() {
        if (!enabled || selfShrinking()) {
            return;
        }
        lastCollections = collections();
        thread = Thread.ofVirtual().name("berth-heap-trim").start(this::run);
    }

    private void run() {
        try {
            for (int looks = 0; !Thread.currentThread().isInterrupted(); looks++) {
                Thread.sleep(looks < FIRST_LOOKS ? FIRST_PERIOD : PERIOD);
                check();
            }
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
        }
    }

    /** One look; returns whether it asked for a full GC. */
    boolean check() {
        long collections = collections();
        boolean quiet = collections == lastCollections;
        lastCollections = collections;
        long committed = memory.getHeapMemoryUsage().getCommitted();
        if (!quiet || committed <= committedAfterTrim + committedAfterTrim / 2 + SLACK_BYTES) {
            return false;
        }
        System.gc(); // the one place the agent asks for a full collection, and only when quiet
        committedAfterTrim = memory.getHeapMemoryUsage().getCommitted();
        lastCollections = collections();
        log.debug("heap trimmed: committed {} MB -> {} MB", committed >> 20, committedAfterTrim >> 20);
        return true;
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
