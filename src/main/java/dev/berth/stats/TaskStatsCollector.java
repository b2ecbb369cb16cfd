package dev.berth.stats;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import dev.berth.host.ThreadNiceness;
import dev.berth.stats.TaskStatsTarget.TaskKey;

/**
 * Samples every registered running task once per {@code berth.telemetry.collection-interval} into an immutable per-task
 * snapshot map. REST and Prometheus read {@link #snapshots()}; nothing they do triggers a read.
 *
 * <p>Reads run on a few low-priority platform threads ({@link StatsReadPool}), never on the virtual-thread scheduler
 * the API's requests use. A tick waits for the reads up to one interval; a read that takes longer than a tenth of the
 * interval (a hung cgroupfs, a D-state process) stops holding a read slot and is left to finish in the background, its
 * task keeps its previous snapshot, and it is not read again until it returns — so one slow task never delays the
 * others.
 *
 * <p>While no task is registered the tick is not armed at all (after one tick that published the empty map): an idle
 * agent spends nothing here; the next registration arms it again, with a first tick at once.
 *
 * <p>With {@code publish-allocation-metrics=false} nothing is registered or collected (since 2025 Nomad's
 * {@code publish_allocation_metrics} gates the whole stats collection, not only the gauges).
 */
public class TaskStatsCollector implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(TaskStatsCollector.class);

    private final boolean enabled;
    private final Duration interval;
    private final Function<TaskStatsTarget, TaskStatsReader> readers;
    private final TaskCpuCapacity capacity;
    private final Clock clock;
    private final Map<TaskKey, Entry> entries = new ConcurrentHashMap<>();
    private final List<Consumer<Map<TaskKey, TaskStatsSnapshot>>> listeners = new CopyOnWriteArrayList<>();
    private final int parallelism;
    private volatile StatsReadPool reads;
    /** Set when a task got its first snapshot or was unregistered or replaced: the next publish lays the tasks out anew. */
    private final AtomicBoolean structureChanged = new AtomicBoolean();
    // one tick's snapshots, laid out once per change of the task set, so a /stats request is a lookup, not a scan
    private volatile PublishedSnapshots published = PublishedSnapshots.EMPTY;
    /** The entries of {@link #published}'s slots, in its layout's order; written by {@link #publish()} only. */
    private volatile Entry[] publishedEntries = new Entry[0];
    private volatile ScheduledExecutorService ticker;
    /** Whether the last publish told the listeners "no task": then a tick with no task has nothing to do. */
    private volatile boolean publishedNothing;
    /**
     * The periodic tick; null while stopped and while idle (no task registered and the empty map published): the first
     * registration arms it again. Guarded by {@link #tickLock}.
     */
    private ScheduledFuture<?> tickTask;
    private final Object tickLock = new Object();

    public TaskStatsCollector(boolean enabled, Duration interval, Function<TaskStatsTarget, TaskStatsReader> readers,
            TaskCpuCapacity capacity, Clock clock) {
        this(enabled, interval, readers, capacity, clock, StatsReadPool.defaultParallelism());
    }

    /** @param parallelism how many task reads run at once (a stuck read does not count after a tenth of the interval) */
    TaskStatsCollector(boolean enabled, Duration interval, Function<TaskStatsTarget, TaskStatsReader> readers,
            TaskCpuCapacity capacity, Clock clock, int parallelism) {
        this.parallelism = parallelism;
        this.enabled = enabled;
        this.interval = interval;
        this.readers = readers;
        this.capacity = capacity;
        this.clock = clock;
        this.reads = newReadPool();
    }

    /** Starts sampling a running task (poststart). Re-registering a task replaces its reader and CPU history. */
    public void register(TaskStatsTarget target) {
        if (!enabled) {
            return;
        }
        Entry entry = new Entry(target.key(), new TaskSampler(target, readers.apply(target), capacity, clock));
        Entry replaced = entries.put(target.key(), entry);
        if (replaced != null) {
            entry.snapshot = replaced.snapshot; // the old reader's last sample stays published until the new reader's first
            replaced.remove();
            structureChanged.set(true);
        }
        KernelFile.sampledTasks(entries.size());
        synchronized (tickLock) {
            ScheduledExecutorService scheduler = ticker;
            if (tickTask == null && scheduler != null && !scheduler.isShutdown()) {
                tickTask = schedule(scheduler); // the ticks sleep while no task runs: this one wakes them
            }
        }
    }

    /** Stops sampling (exited/stop) and drops the task's snapshot at once, so its metric series disappear. */
    public void unregister(String allocId, String task) {
        TaskKey key = new TaskKey(allocId, task);
        Entry removed = entries.remove(key);
        if (removed != null) {
            removed.remove();
            KernelFile.sampledTasks(entries.size());
            structureChanged.set(true);
            publish();
        }
    }

    /** The latest snapshot of every registered task that has been sampled at least once. Immutable. */
    public Map<TaskKey, TaskStatsSnapshot> snapshots() {
        return published;
    }

    public Optional<TaskStatsSnapshot> snapshot(String allocId, String task) {
        return Optional.ofNullable(published.get(new TaskKey(allocId, task)));
    }

    /** The snapshots of one allocation's tasks (immutable; empty when none). A map lookup, whatever the task count. */
    public List<TaskStatsSnapshot> snapshotsOf(String allocId) {
        return published.ofAlloc(allocId);
    }

    /**
     * Called with the new snapshot map after every tick and every unregister (e.g. to reconcile meters); while no task
     * is registered, once with the empty map rather than after every tick.
     */
    public void addListener(Consumer<Map<TaskKey, TaskStatsSnapshot>> listener) {
        listeners.add(listener);
    }

    public boolean enabled() {
        return enabled;
    }

    /**
     * One tick: samples every registered task (bounded by one interval), then publishes the snapshot map. With no task
     * registered and the empty map already published, it does nothing (publishing it again would change nothing).
     */
    public void collect() {
        if (publishedNothing && entries.isEmpty()) {
            return; // no task, and the listeners already have the empty map: an idle agent's tick is this check
        }
        Entry[] laidOut = publishedEntries;
        // no task came, went or got its first sample since the last publish: the registry is the published entries
        // (an entry removed meanwhile cannot be claimed below: its removal claimed it for good)
        Iterable<Entry> current = !structureChanged.get() && laidOut.length == entries.size() ? Arrays.asList(laidOut)
                : entries.values();
        List<Entry> due = new ArrayList<>(entries.size());
        for (Entry entry : current) {
            if (entry.reading.compareAndSet(false, true)) {
                due.add(entry);
            } else {
                log.debug("Stats read of {} still running from an earlier tick; keeping its previous sample", entry.key);
            }
        }
        try {
            List<Entry> skipped = reads.runAll(due, this::sampleOne, System.nanoTime() + interval.toNanos());
            skipped.forEach(e -> e.reading.set(false));
            if (!skipped.isEmpty()) {
                log.debug("{} task stats reads not started within {}", skipped.size(), interval);
            }
        } catch (InterruptedException e) {
            due.forEach(entry -> entry.reading.compareAndSet(true, !entry.started));
            Thread.currentThread().interrupt();
        }
        publish();
    }

    private void sampleOne(Entry entry) {
        TaskKey key = entry.key;
        entry.started = true;
        try {
            TaskStatsSnapshot snapshot = entry.sampler.sample();
            if (!entry.removed) { // not unregistered or replaced while reading
                boolean first = entry.snapshot == null;
                entry.snapshot = snapshot;
                if (first) {
                    structureChanged.set(true);
                }
            }
        } catch (Exception | LinkageError e) {
            if (entry.failureLogged.compareAndSet(false, true)) {
                log.warn("Cannot read stats of task {}/{}: {}", key.allocId(), key.task(), e.toString());
            }
        } finally {
            entry.started = false;
            entry.reading.set(false);
            if (entry.removed) {
                entry.retire(); // unregistered or replaced while reading: its reader's files are not needed any more
            }
        }
    }

    /**
     * Publishes the latest snapshot of every registered task. While no task came or went since the last publish this
     * is one array of the tick's snapshots in the previous layout (no map lookup); otherwise the tasks are laid out anew
     * (and the snapshots of tasks unregistered while their read ran are dropped).
     */
    private synchronized void publish() {
        PublishedSnapshots next = structureChanged.get() ? null : inSameLayout(published.layout());
        if (next == null) {
            next = inNewLayout();
        }
        published = next;
        for (Consumer<Map<TaskKey, TaskStatsSnapshot>> listener : listeners) {
            try {
                listener.accept(next);
            } catch (RuntimeException e) {
                log.warn("Task stats listener failed", e);
            }
        }
        publishedNothing = next.isEmpty();
    }

    /** The latest snapshots in {@code layout}'s slots; null when a task of it was unregistered or replaced. */
    private PublishedSnapshots inSameLayout(PublishedSnapshots.Layout layout) {
        Entry[] slots = publishedEntries;
        if (layout.size() != slots.length) {
            return null;
        }
        TaskStatsSnapshot[] values = new TaskStatsSnapshot[slots.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = slots[i].snapshot;
            if (slots[i].removed || values[i] == null) {
                return null;
            }
        }
        return new PublishedSnapshots(layout, values);
    }

    private PublishedSnapshots inNewLayout() {
        structureChanged.set(false); // a task sampled for the first time from now on marks the next publish
        List<Entry> sampled = new ArrayList<>(entries.size());
        List<TaskStatsSnapshot> values = new ArrayList<>(entries.size());
        for (Entry entry : entries.values()) {
            TaskStatsSnapshot snapshot = entry.snapshot;
            if (snapshot != null && !entry.removed) {
                sampled.add(entry);
                values.add(snapshot);
            }
        }
        publishedEntries = sampled.toArray(Entry[]::new);
        TaskKey[] keys = new TaskKey[publishedEntries.length];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = publishedEntries[i].key;
        }
        return new PublishedSnapshots(PublishedSnapshots.Layout.of(keys), values.toArray(TaskStatsSnapshot[]::new));
    }

    @Override
    public void start() {
        if (!enabled || ticker != null) {
            return;
        }
        if (reads.isShutdown()) { // a context that is stopped and started again
            reads = newReadPool();
        }
        // the tick (publish, meter reconcile) is background work too: it yields the CPU to API requests
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(ThreadNiceness.lowered(
                Thread.ofPlatform().name("berth-task-stats").daemon(true).factory(), ThreadNiceness.BACKGROUND));
        synchronized (tickLock) {
            ticker = scheduler;
            tickTask = schedule(scheduler);
        }
    }

    private ScheduledFuture<?> schedule(ScheduledExecutorService scheduler) {
        // fixed delay: a tick that ran long never queues up a burst of catch-up ticks
        return scheduler.scheduleWithFixedDelay(this::tickSafely, 0, interval.toNanos(), TimeUnit.NANOSECONDS);
    }

    // A periodic task that throws is never run again: catch everything, the next tick re-arms.
    private void tickSafely() {
        try {
            collect();
        } catch (Throwable e) {
            log.warn("Task stats tick failed; retrying next interval", e);
        }
        if (publishedNothing && entries.isEmpty()) {
            synchronized (tickLock) {
                // a registration puts its entry before it takes the lock: it either is seen here or re-arms the tick
                if (entries.isEmpty() && tickTask != null) {
                    tickTask.cancel(false); // nothing to sample or publish: sleep until a task registers
                    tickTask = null;
                }
            }
        }
    }

    @Override
    public void stop() {
        ScheduledExecutorService scheduler;
        synchronized (tickLock) {
            scheduler = ticker;
            ticker = null;
            tickTask = null;
        }
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
        reads.shutdownNow();
    }

    /** Whether the periodic tick is armed (false while stopped, and while idle with no task). */
    boolean ticking() {
        synchronized (tickLock) {
            return tickTask != null;
        }
    }

    @Override
    public boolean isRunning() {
        return ticker != null;
    }

    private StatsReadPool newReadPool() {
        return new StatsReadPool(parallelism, interval.dividedBy(10));
    }

    private static final class Entry {
        final TaskKey key;
        final TaskSampler sampler;
        final AtomicBoolean reading = new AtomicBoolean();
        final AtomicBoolean failureLogged = new AtomicBoolean();
        volatile boolean started;
        /** Its latest sample; null before the first. */
        volatile TaskStatsSnapshot snapshot;
        /** Set once it left {@link #entries} (unregistered, or replaced by a new registration of the task). */
        volatile boolean removed;

        Entry(TaskKey key, TaskSampler sampler) {
            this.key = key;
            this.sampler = sampler;
        }

        /** Marks it out of the registry, then retires it (a read still running retires it when it ends). */
        void remove() {
            removed = true;
            retire();
        }

        /**
         * Closes the reader's files unless a read is running (a stuck read must not block the caller): then the read's
         * own end retires it. Claiming {@link #reading} for good also keeps any later tick from reading it.
         */
        void retire() {
            if (reading.compareAndSet(false, true)) {
                sampler.close();
            }
        }
    }
}
