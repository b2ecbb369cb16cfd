package dev.berth.alloc.gc;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.berth.alloc.AllocExceptions.UnknownAllocException;
import dev.berth.alloc.AllocManager.TerminalAlloc;

/**
 * Destroys terminal allocations by policy (Nomad's {@code client/gc.go}): terminal allocs are kept for inspection until
 * the node holds more than {@code max-allocs} allocations or the alloc dir's filesystem is fuller than the disk or inode
 * threshold; then the oldest terminal ones (by their last task's {@code FinishedAt}) are destroyed, at most
 * {@code parallel-destroys} at a time, re-checking the policy after each batch. Forced collection (one alloc or all
 * terminal ones) goes through the same destroy path and limit.
 *
 * <p>{@link #collect()} runs one pass; it is called by {@link GcScheduler} every {@code interval}. Passes are serialized.
 * Thread-safe.
 */
public final class AllocGarbageCollector {

    private static final Logger log = LoggerFactory.getLogger(AllocGarbageCollector.class);

    private final GcTarget target;
    private final DiskUsage disk;
    private final GcProperties props;
    private final GcMetrics metrics;
    private final Clock clock;
    private final Duration destroyWait;
    private final Semaphore destroySlots;
    private final Object passLock = new Object();
    /** When an alloc without any task FinishedAt was first seen terminal: its age for the oldest-first order. */
    private final Map<String, Instant> firstSeenTerminal = new ConcurrentHashMap<>();

    /** @param destroyWait how long one destroy may take before it counts as failed (its tasks' kill is bounded) */
    public AllocGarbageCollector(GcTarget target, DiskUsage disk, GcProperties props, GcMetrics metrics, Clock clock,
                                 Duration destroyWait) {
        this.target = target;
        this.disk = disk;
        this.props = props;
        this.metrics = metrics;
        this.clock = clock;
        this.destroyWait = destroyWait;
        this.destroySlots = new Semaphore(props.parallelDestroys());
    }

    /** What one pass did. */
    public record PassResult(int destroyed, long bytesFreed, int failures) {
    }

    /** One policy pass. Never throws: failures are counted and logged. */
    public PassResult collect() {
        synchronized (passLock) {
            metrics.run();
            int destroyed = 0;
            long freed = 0;
            int failures = 0;
            Set<String> attempted = new HashSet<>();
            try {
                while (true) {
                    List<TerminalAlloc> candidates = oldestFirst(target.terminalAllocs()).stream()
                            .filter(a -> !attempted.contains(a.id())).toList();
                    if (candidates.isEmpty()) {
                        break;
                    }
                    GcReason reason = reason();
                    if (reason == null) {
                        break;
                    }
                    int batch = props.parallelDestroys();
                    if (reason == GcReason.MAX_ALLOCS) {
                        batch = Math.min(batch, target.allocCount() - props.maxAllocs());
                    }
                    List<TerminalAlloc> chosen = candidates.subList(0, Math.min(batch, candidates.size()));
                    chosen.forEach(a -> attempted.add(a.id()));
                    for (Outcome o : destroyAll(chosen, reason)) {
                        if (o.ok()) {
                            destroyed++;
                            freed += o.bytes();
                        } else {
                            failures++;
                        }
                    }
                }
            } catch (RuntimeException e) {
                failures++;
                metrics.failed();
                log.warn("garbage collection pass failed", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                firstSeenTerminal.keySet().retainAll(target.terminalAllocs().stream().map(TerminalAlloc::id).toList());
            } catch (RuntimeException e) {
                // already counted above when the target is failing; the map is trimmed on the next pass
            }
            if (destroyed > 0 || failures > 0) {
                log.info("garbage collection: destroyed={} freedBytes={} failures={}", destroyed, freed, failures);
            }
            return new PassResult(destroyed, freed, failures);
        }
    }

    /** The first policy that asks for a collection, or null. A usage read failure counts and skips the disk policies. */
    private GcReason reason() {
        try {
            DiskUsage.Usage usage = disk.read();
            if (usage.diskUsedPercent() >= props.diskUsageThreshold()) {
                return GcReason.DISK;
            }
            if (usage.inodeUsedPercent() >= props.inodeUsageThreshold()) {
                return GcReason.INODES;
            }
        } catch (IOException | RuntimeException e) {
            metrics.failed();
            log.warn("cannot read disk usage of the alloc dir: {}", e.toString());
        }
        return target.allocCount() > props.maxAllocs() ? GcReason.MAX_ALLOCS : null;
    }

    /**
     * Forced GC of one alloc ({@code POST /v1/client/allocation/:id/gc}); returns once it is destroyed.
     *
     * @throws UnknownAllocException     the node does not know it
     * @throws NotEligibleForGcException it is not terminal
     */
    public void collect(String allocId) throws UnknownAllocException, NotEligibleForGcException, InterruptedException {
        if (!target.isTerminal(allocId)) {
            throw new NotEligibleForGcException();
        }
        TerminalAlloc alloc = target.terminalAllocs().stream().filter(a -> a.id().equals(allocId)).findFirst()
                .orElseThrow(NotEligibleForGcException::new);
        destroyAll(List.of(alloc), GcReason.FORCED);
    }

    /** Forced GC of every terminal alloc ({@code POST /v1/client/gc}); returns the number destroyed. */
    public int collectAll() throws InterruptedException {
        return (int) destroyAll(oldestFirst(target.terminalAllocs()), GcReason.FORCED).stream().filter(Outcome::ok).count();
    }

    private List<TerminalAlloc> oldestFirst(List<TerminalAlloc> allocs) {
        Instant now = clock.instant();
        List<TerminalAlloc> sorted = new ArrayList<>(allocs);
        sorted.sort(Comparator.comparing((TerminalAlloc a) -> a.finishedAt() != null ? a.finishedAt()
                : firstSeenTerminal.computeIfAbsent(a.id(), id -> now)).thenComparing(TerminalAlloc::id));
        return sorted;
    }

    private record Outcome(boolean ok, long bytes) {
    }

    private List<Outcome> destroyAll(List<TerminalAlloc> allocs, GcReason reason) throws InterruptedException {
        List<Outcome> outcomes = java.util.Collections.synchronizedList(new ArrayList<>());
        try (var exec = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("berth-gc-destroy-", 0).factory())) {
            for (TerminalAlloc alloc : allocs) {
                destroySlots.acquire();
                exec.submit(() -> {
                    try {
                        outcomes.add(destroyOne(alloc, reason));
                    } finally {
                        destroySlots.release();
                    }
                });
            }
        }
        return outcomes;
    }

    private Outcome destroyOne(TerminalAlloc alloc, GcReason reason) {
        long bytes = sizeOf(alloc.dir());
        try {
            target.destroy(alloc.id()).get(destroyWait.toMillis(), TimeUnit.MILLISECONDS);
            if (Files.exists(alloc.dir())) {
                throw new IOException("alloc dir " + alloc.dir() + " still exists after destroy");
            }
            metrics.destroyed(reason, bytes);
            log.info("garbage collected alloc: alloc={} reason={} bytes={}", alloc.id(), reason.label(), bytes);
            return new Outcome(true, bytes);
        } catch (UnknownAllocException e) {
            return new Outcome(true, 0); // destroyed meanwhile by someone else: nothing left to free
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            metrics.failed();
            return new Outcome(false, 0);
        } catch (ExecutionException | TimeoutException | IOException | RuntimeException e) {
            metrics.failed();
            log.warn("garbage collection of alloc {} failed: {}", alloc.id(), e.toString());
            return new Outcome(false, 0);
        }
    }

    /** Bytes of the regular files under {@code dir}: walked only when the alloc is about to be destroyed. */
    static long sizeOf(Path dir) {
        long[] total = {0};
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (attrs.isRegularFile()) {
                        total[0] += attrs.size();
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException exc) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (NoSuchFileException e) {
            return 0;
        } catch (IOException e) {
            log.debug("cannot size {}", dir, e);
        }
        return total[0];
    }
}
