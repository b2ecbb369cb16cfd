package dev.berth.stats;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.host.cgroup.TaskCgroup;
import dev.berth.stats.TaskStatsTarget.TaskKey;

/**
 * Memory event counters of every cgroup-backed task ({@link TaskMemoryEvents}), read right after each task-stats tick
 * for the tasks that tick sampled, from files kept open per task ({@link MemoryEventsFiles}), and kept beside the
 * stats snapshots as the pressure figures are. A task whose memory figures have not moved since its files were last
 * read is not read again (for up to {@link #REREAD_AFTER} ticks): an idle task costs a comparison. A task whose
 * {@code high} counter rose by more than {@code highBurst} between two reads (a throttled task's memory moves, so
 * those are two ticks) is throttled in a burst: its watcher hears of it ({@link MemoryThrottling}) at most once per
 * {@code quietPeriod}; bursts within that period are counted and told with the next notice.
 */
public class TaskMemoryEventsCollector {

    private static final Logger log = LoggerFactory.getLogger(TaskMemoryEventsCollector.class);

    /**
     * Ticks a task's files may go unread while its memory figures stand still. Every memory event is a charge, a
     * reclaim or a kill, each of which moves them, so a task whose figures did not move counted none; the files are
     * still read at least this often.
     */
    static final int REREAD_AFTER = 9;

    private final long highBurst;
    private final long quietNanos;
    /** Registers and removes the meters; they read {@link #latest} at each scrape. */
    private final TaskMemoryEventsMetrics metrics;
    /** The agent's descriptor budget: each task's event files are kept open out of it. */
    private final DescriptorBudget budget;
    private final Map<TaskKey, Tracked> tracked = new HashMap<>();
    private final Map<TaskKey, Consumer<MemoryThrottling>> watchers = new ConcurrentHashMap<>();
    private volatile Map<TaskKey, TaskMemoryEvents> latest = Map.of();
    /** Within one {@link #update}: whether a task's counters, or the set of series, changed. */
    private boolean latestChanged;
    private boolean layoutChanged;

    /**
     * @param highBurst   a rise of {@code high} above this between two ticks is a burst
     * @param quietPeriod the shortest time between two notices of one task
     * @param metrics     the meters that follow the latest figures
     * @param budget      the agent's descriptor budget
     */
    public TaskMemoryEventsCollector(long highBurst, Duration quietPeriod, TaskMemoryEventsMetrics metrics,
                                     DescriptorBudget budget) {
        this.budget = budget;
        this.highBurst = highBurst;
        this.quietNanos = quietPeriod.toNanos();
        this.metrics = metrics;
        metrics.readFrom(() -> latest);
    }

    /** Follows the collector: reads after each tick, drops a task's figures and series when it is unregistered. */
    public void bind(TaskStatsCollector collector) {
        collector.addListener(this::update);
    }

    /** The latest counters of a task; empty for a task without a cgroup, or before its first sample. */
    public Optional<TaskMemoryEvents> events(String allocId, String task) {
        return Optional.ofNullable(latest.get(new TaskKey(allocId, task)));
    }

    /** Tells {@code watcher} of the task's throttling bursts until {@link #unwatch}. */
    public void watch(String allocId, String task, Consumer<MemoryThrottling> watcher) {
        watchers.put(new TaskKey(allocId, task), watcher);
    }

    public void unwatch(String allocId, String task) {
        watchers.remove(new TaskKey(allocId, task));
    }

    synchronized void update(Map<TaskKey, TaskStatsSnapshot> snapshots) {
        if (tracked.isEmpty() && noCgroupTask(snapshots)) {
            return; // nothing kept and nothing to read: a tick costs one pass over the slots
        }
        boolean changed = tracked.entrySet().removeIf(entry -> {
            boolean gone = !snapshots.containsKey(entry.getKey());
            if (gone) {
                entry.getValue().files.close();
            }
            return gone;
        });
        latestChanged = changed;
        layoutChanged = changed;
        snapshots.forEach(this::visit); // a published map's forEach walks its arrays: no entry object per task
        changed = latestChanged;
        boolean layout = layoutChanged;
        if (changed) {
            Map<TaskKey, TaskMemoryEvents> next = new HashMap<>();
            tracked.forEach((key, task) -> {
                if (!task.events.isEmpty()) {
                    next.put(key, task.events);
                }
            });
            latest = Map.copyOf(next);
        }
        if (layout) {
            Map<TaskKey, TaskStatsTarget> targets = new HashMap<>();
            tracked.forEach((key, task) -> targets.put(key, task.target));
            metrics.reconcile(latest, targets);
        }
    }

    /** Reads one task's files when its memory figures moved (or were not read for long), and tells of a burst. */
    private void visit(TaskKey key, TaskStatsSnapshot snapshot) {
        Path dir = memoryDir(snapshot.target());
        if (dir == null) {
            return;
        }
        Tracked task = tracked.get(key);
        if (task == null || !task.files.dir().equals(dir)) {
            if (task != null) {
                task.files.close();
            }
            task = new Tracked(new MemoryEventsFiles(snapshot.target().cgroupVersion(), dir, budget), snapshot.target());
            tracked.put(key, task);
            layoutChanged = true;
        }
        if (task.sampledAt == snapshot.timestampNanos()) {
            return; // an unregister republishes the same samples: read again only after a new tick
        }
        task.sampledAt = snapshot.timestampNanos();
        TaskMemoryStats memory = snapshot.usage().memory();
        if (memory == task.memoryAtRead && task.unread < REREAD_AFTER) {
            task.unread++; // nothing was charged or freed since the last read: no event can have been counted
            return;
        }
        TaskMemoryEvents before = task.events;
        long beforeAt = task.readAt;
        task.events = read(task.files);
        task.readAt = task.sampledAt;
        task.memoryAtRead = memory;
        task.unread = 0;
        latestChanged |= task.events != before;
        layoutChanged |= task.events.measured() != before.measured();
        if (before.has(TaskMemoryEvents.Event.HIGH) && task.events.has(TaskMemoryEvents.Event.HIGH)
                && task.events.high() - before.high() > highBurst) {
            burst(key, task, task.events.high() - before.high(), beforeAt);
        }
    }

    private void burst(TaskKey key, Tracked task, long rise, long previousAt) {
        if (task.noticedAt != Long.MIN_VALUE && task.readAt - task.noticedAt < quietNanos) {
            task.suppressed++;
            return;
        }
        Consumer<MemoryThrottling> watcher = watchers.get(key);
        if (watcher == null) {
            return;
        }
        MemoryThrottling throttling = new MemoryThrottling(key.allocId(), key.task(), instant(task.readAt), rise,
                Duration.ofNanos(task.readAt - previousAt), task.events, task.suppressed);
        task.noticedAt = task.readAt;
        task.suppressed = 0;
        try {
            watcher.accept(throttling);
        } catch (RuntimeException e) {
            log.warn("Telling of the memory throttling of task {}/{} failed: {}", key.allocId(), key.task(), e.toString());
        }
    }

    private static Instant instant(long epochNanos) {
        return Instant.ofEpochSecond(0, epochNanos);
    }

    /** The directory whose memory files the task has: v2 its cgroup, v1 its memory cgroup; null without one. */
    private static Path memoryDir(TaskStatsTarget target) {
        return switch (target.cgroupVersion()) {
            case V2 -> target.cgroupDirs().get(TaskCgroup.UNIFIED);
            case V1 -> target.cgroupDirs().get("memory");
            case NONE -> null;
        };
    }

    private static boolean noCgroupTask(Map<TaskKey, TaskStatsSnapshot> snapshots) {
        for (TaskStatsSnapshot snapshot : snapshots.values()) {
            if (snapshot.target().cgroupVersion() != CgroupVersion.NONE) {
                return false;
            }
        }
        return true;
    }

    private static TaskMemoryEvents read(MemoryEventsFiles files) {
        try {
            return files.read();
        } catch (IOException | RuntimeException e) {
            log.debug("Cannot read memory event files in {}: {}", files.dir(), e.toString());
            return TaskMemoryEvents.NONE;
        }
    }

    /** One task's open files and last figures. */
    private static final class Tracked {
        final MemoryEventsFiles files;
        final TaskStatsTarget target;
        TaskMemoryEvents events = TaskMemoryEvents.NONE;
        /** The tick that last saw the task, and the one that last read its files. */
        long sampledAt = Long.MIN_VALUE;
        long readAt = Long.MIN_VALUE;
        /** The task's memory figures at the last read (the sampler keeps the same object while they stand still). */
        TaskMemoryStats memoryAtRead;
        int unread;
        long noticedAt = Long.MIN_VALUE;
        int suppressed;

        Tracked(MemoryEventsFiles files, TaskStatsTarget target) {
            this.files = files;
            this.target = target;
        }
    }
}
