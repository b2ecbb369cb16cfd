package dev.berth.stats;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
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
 * others. Which thread may read, and which closes, a task's reader is its {@link SampledTask}'s one state.
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
    private final DescriptorBudget budget;
    private final TaskCpuCapacity capacity;
    private final Clock clock;
    private final int parallelism;
    /** The registered tasks; written by {@link #register} and {@link #unregister}, read by the tick. */
    private final Map<TaskKey, SampledTask> tasks = new ConcurrentHashMap<>();
    private final List<Consumer<Map<TaskKey, TaskStatsSnapshot>>> listeners = new CopyOnWriteArrayList<>();
    /** Replaced (under {@link #tickLock}) by a {@link #start()} after a stop; read by the tick. */
    private volatile StatsReadPool reads;
    /** The last published snapshots; replaced whole by {@link #publish()}, read by every request. */
    private volatile Published published = Published.NONE;
    /** Whether the last publish told the listeners "no task": then a tick with no task has nothing to do. */
    private volatile boolean publishedNothing;
    /** The tick's scheduler; null while stopped. Guarded by {@link #tickLock}. */
    private ScheduledExecutorService ticker;
    /**
     * The periodic tick; null while stopped and while idle (no task registered and the empty map published): the first
     * registration arms it again. Guarded by {@link #tickLock}.
     */
    private ScheduledFuture<?> tickTask;
    private final Object tickLock = new Object();

    public TaskStatsCollector(boolean enabled, Duration interval, Function<TaskStatsTarget, TaskStatsReader> readers,
            DescriptorBudget budget, TaskCpuCapacity capacity, Clock clock) {
        this(enabled, interval, readers, budget, capacity, clock, StatsReadPool.defaultParallelism());
    }

    /** @param parallelism how many task reads run at once (a stuck read does not count after a tenth of the interval) */
    TaskStatsCollector(boolean enabled, Duration interval, Function<TaskStatsTarget, TaskStatsReader> readers,
            DescriptorBudget budget, TaskCpuCapacity capacity, Clock clock, int parallelism) {
        this.parallelism = parallelism;
        this.enabled = enabled;
        this.interval = interval;
        this.readers = readers;
        this.budget = budget;
        this.capacity = capacity;
        this.clock = clock;
        this.reads = newReadPool();
    }

    /** Starts sampling a running task (poststart). Re-registering a task replaces its reader and CPU history. */
    public void register(TaskStatsTarget target) {
        if (!enabled) {
            return;
        }
        TaskSampler sampler = new TaskSampler(target, readers.apply(target), capacity, clock);
        SampledTask[] replaced = new SampledTask[1];
        tasks.compute(target.key(), (key, old) -> {
            replaced[0] = old;
            return old == null ? new SampledTask(key, sampler) : new SampledTask(key, sampler, old);
        });
        if (replaced[0] != null) {
            replaced[0].remove();
        }
        budget.sampledTasks(tasks.size());
        synchronized (tickLock) {
            if (tickTask == null && ticker != null && !ticker.isShutdown()) {
                tickTask = schedule(ticker); // the ticks sleep while no task runs: this one wakes them
            }
        }
    }

    /** Stops sampling (exited/stop) and drops the task's snapshot at once, so its metric series disappear. */
    public void unregister(String allocId, String task) {
        SampledTask removed = tasks.remove(new TaskKey(allocId, task));
        if (removed != null) {
            removed.remove();
            budget.sampledTasks(tasks.size());
            publish();
        }
    }

    /** The latest snapshot of every registered task that has been sampled at least once. Immutable. */
    public Map<TaskKey, TaskStatsSnapshot> snapshots() {
        return published.byTask();
    }

    public Optional<TaskStatsSnapshot> snapshot(String allocId, String task) {
        return Optional.ofNullable(published.byTask().get(new TaskKey(allocId, task)));
    }

    /** The snapshots of one allocation's tasks (immutable; empty when none). A map lookup, whatever the task count. */
    public List<TaskStatsSnapshot> snapshotsOf(String allocId) {
        return published.byAlloc().getOrDefault(allocId, List.of());
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
        if (publishedNothing && tasks.isEmpty()) {
            return; // no task, and the listeners already have the empty map: an idle agent's tick is this check
        }
        List<SampledTask> due = new ArrayList<>(tasks.size());
        for (SampledTask task : tasks.values()) {
            if (task.claim()) {
                due.add(task);
            } else {
                log.debug("Stats read of {} still running from an earlier tick; keeping its previous sample", task.key());
            }
        }
        try {
            List<SampledTask> skipped = reads.runAll(due, SampledTask::read, System.nanoTime() + interval.toNanos());
            skipped.forEach(SampledTask::unclaim);
            if (!skipped.isEmpty()) {
                log.debug("{} task stats reads not started within {}", skipped.size(), interval);
            }
        } catch (InterruptedException e) {
            due.forEach(SampledTask::unclaim); // gives back the claims whose read did not start
            Thread.currentThread().interrupt();
        }
        publish();
    }

    /** Publishes the latest snapshot of every registered task, then tells the listeners. */
    private synchronized void publish() {
        Published next = Published.of(tasks.values());
        published = next;
        for (Consumer<Map<TaskKey, TaskStatsSnapshot>> listener : listeners) {
            try {
                listener.accept(next.byTask());
            } catch (RuntimeException e) {
                log.warn("Task stats listener failed", e);
            }
        }
        publishedNothing = next.byTask().isEmpty();
    }

    @Override
    public void start() {
        if (!enabled) {
            return;
        }
        synchronized (tickLock) {
            if (ticker != null) {
                return;
            }
            if (reads.isShutdown()) { // a context that is stopped and started again
                reads = newReadPool();
            }
            // the tick (publish, meter reconcile) is background work too: it yields the CPU to API requests
            ticker = Executors.newSingleThreadScheduledExecutor(ThreadNiceness.lowered(
                    Thread.ofPlatform().name("berth-task-stats").daemon(true).factory(), ThreadNiceness.BACKGROUND));
            tickTask = schedule(ticker);
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
        if (publishedNothing && tasks.isEmpty()) {
            synchronized (tickLock) {
                // a registration puts its task before it takes the lock: it either is seen here or re-arms the tick
                if (tasks.isEmpty() && tickTask != null) {
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
        synchronized (tickLock) {
            return ticker != null;
        }
    }

    private StatsReadPool newReadPool() {
        return new StatsReadPool(parallelism, interval.dividedBy(10));
    }

    /** One publish: the snapshots by task and by allocation, both immutable. */
    private record Published(Map<TaskKey, TaskStatsSnapshot> byTask, Map<String, List<TaskStatsSnapshot>> byAlloc) {

        static final Published NONE = new Published(Map.of(), Map.of());

        /** The latest snapshot of each task sampled at least once and not removed. */
        static Published of(Collection<SampledTask> tasks) {
            Map<TaskKey, TaskStatsSnapshot> byTask = new LinkedHashMap<>();
            Map<String, List<TaskStatsSnapshot>> byAlloc = new HashMap<>();
            for (SampledTask task : tasks) {
                TaskStatsSnapshot snapshot = task.snapshot();
                if (snapshot != null) {
                    byTask.put(task.key(), snapshot);
                    byAlloc.computeIfAbsent(task.key().allocId(), id -> new ArrayList<>(1)).add(snapshot);
                }
            }
            byAlloc.replaceAll((id, list) -> List.copyOf(list));
            return new Published(Collections.unmodifiableMap(byTask), Collections.unmodifiableMap(byAlloc));
        }
    }
}
