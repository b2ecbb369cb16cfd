package dev.berth.alloc.gc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.berth.alloc.AllocExceptions.UnknownAllocException;
import dev.berth.alloc.AllocManager.TerminalAlloc;
import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricsNaming;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** The GC policy over real alloc directories: count, disk and inode thresholds, oldest first, parallelism, forced GC, metrics. */
class AllocGarbageCollectorTest {

    @TempDir
    Path root;

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final FakeTarget target = new FakeTarget();
    final AtomicReference<DiskUsage.Usage> usage = new AtomicReference<>(new DiskUsage.Usage(10, 10));
    final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");

    /** Allocs by id: a directory, a terminal flag and a finish time; destroy deletes the directory. */
    final class FakeTarget implements GcTarget {
        final Map<String, Instant> terminal = new ConcurrentHashMap<>();
        final Map<String, Boolean> live = new ConcurrentHashMap<>();
        final List<String> destroyed = new CopyOnWriteArrayList<>();
        final AtomicInteger concurrent = new AtomicInteger();
        final AtomicInteger maxConcurrent = new AtomicInteger();
        /** Called when a destroy starts (e.g. to free disk). */
        volatile Runnable onDestroy = () -> { };
        volatile boolean failDestroys;

        @Override
        public List<TerminalAlloc> terminalAllocs() {
            List<TerminalAlloc> out = new ArrayList<>();
            terminal.forEach((id, at) -> out.add(new TerminalAlloc(id, at.equals(Instant.EPOCH) ? null : at, root.resolve(id))));
            return out;
        }

        @Override
        public int allocCount() {
            return terminal.size() + live.size();
        }

        @Override
        public boolean isTerminal(String allocId) throws UnknownAllocException {
            if (terminal.containsKey(allocId)) {
                return true;
            }
            if (live.containsKey(allocId)) {
                return false;
            }
            throw new UnknownAllocException(allocId);
        }

        @Override
        public CompletableFuture<Void> destroy(String allocId) {
            int now = concurrent.incrementAndGet();
            maxConcurrent.accumulateAndGet(now, Math::max);
            return CompletableFuture.runAsync(() -> {
                try {
                    if (failDestroys) {
                        throw new IllegalStateException("destroy hooks failed");
                    }
                    dev.berth.alloc.fs.AllocDir dir = new dev.berth.alloc.fs.AllocDir(root, allocId);
                    dir.destroy();
                    destroyed.add(allocId);
                    terminal.remove(allocId);
                    onDestroy.run();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                } finally {
                    concurrent.decrementAndGet();
                }
            });
        }
    }

    void terminal(String id, int minutesAfterT0, int bytes) throws IOException {
        Path data = root.resolve(id).resolve("alloc").resolve("data");
        Files.createDirectories(data);
        Files.write(data.resolve("blob"), new byte[bytes]);
        target.terminal.put(id, t0.plusSeconds(60L * minutesAfterT0));
    }

    void live(String id) throws IOException {
        Files.createDirectories(root.resolve(id));
        target.live.put(id, true);
    }

    AllocGarbageCollector gc(int maxAllocs, int parallel) {
        var props = new GcProperties(maxAllocs, 80, 70, Duration.ofMinutes(1), parallel);
        var metrics = new GcMetrics(new BerthMetrics(registry, MetricsNaming.PROMETHEUS, "h", "n", "dc1", ""));
        return new AllocGarbageCollector(target, usage::get, props, metrics, Clock.fixed(t0, ZoneOffset.UTC), Duration.ofSeconds(10));
    }

    double counter(String name, String... tags) {
        var c = registry.find(name).tags(tags).counter();
        return c == null ? 0 : c.count();
    }

    @BeforeEach
    void noise() throws IOException {
        Files.createDirectories(root);
    }

    @Test
    void underEveryThresholdNothingIsCollected() throws IOException {
        terminal("a", 1, 100);
        live("b");

        var result = gc(50, 2).collect();

        assertThat(result.destroyed()).isZero();
        assertThat(root.resolve("a")).exists();
        assertThat(counter("berth.client.gc.runs")).isEqualTo(1);
    }

    @Test
    void aboveMaxAllocsTheOldestTerminalAllocsGoFirstUntilTheCountFits() throws IOException {
        terminal("newest", 30, 10);
        terminal("oldest", 1, 1000);
        terminal("middle", 10, 100);
        live("l1");
        live("l2");

        var result = gc(3, 2).collect();

        assertThat(target.destroyed).containsExactlyInAnyOrder("oldest", "middle");
        assertThat(root.resolve("newest")).exists();
        assertThat(root.resolve("oldest")).doesNotExist();
        assertThat(result.destroyed()).isEqualTo(2);
        assertThat(result.bytesFreed()).isEqualTo(1100);
        assertThat(counter("berth.client.gc.allocs.destroyed", "reason", "max_allocs")).isEqualTo(2);
        assertThat(counter("berth.client.gc.freed")).isEqualTo(1100);
    }

    @Test
    void liveAllocsAreNeverCollectedEvenAboveMaxAllocs() throws IOException {
        live("l1");
        live("l2");
        live("l3");

        var result = gc(1, 2).collect();

        assertThat(result.destroyed()).isZero();
        assertThat(target.destroyed).isEmpty();
    }

    @Test
    void aboveTheDiskThresholdAllocsAreDestroyedOneBatchAtATimeUntilUsageDrops() throws IOException {
        for (int i = 0; i < 6; i++) {
            terminal("a" + i, i, 10);
        }
        usage.set(new DiskUsage.Usage(95, 5));
        // each destroy frees 5 points of disk: 95 → 90 → 85 → 80 → 75 (below 80 after four)
        target.onDestroy = () -> usage.updateAndGet(u -> new DiskUsage.Usage(u.diskUsedPercent() - 5, u.inodeUsedPercent()));

        var result = gc(50, 1).collect();

        assertThat(target.destroyed).containsExactly("a0", "a1", "a2", "a3");
        assertThat(result.destroyed()).isEqualTo(4);
        assertThat(counter("berth.client.gc.allocs.destroyed", "reason", "disk_usage")).isEqualTo(4);
    }

    @Test
    void aboveTheInodeThresholdAllocsAreDestroyed() throws IOException {
        terminal("a", 1, 1);
        terminal("b", 2, 1);
        usage.set(new DiskUsage.Usage(10, 75));
        target.onDestroy = () -> usage.set(new DiskUsage.Usage(10, 50));

        gc(50, 1).collect();

        assertThat(target.destroyed).containsExactly("a");
        assertThat(counter("berth.client.gc.allocs.destroyed", "reason", "inode_usage")).isEqualTo(1);
    }

    @Test
    void destroysRunAtMostParallelDestroysAtOnce() throws IOException {
        for (int i = 0; i < 8; i++) {
            terminal("a" + i, i, 1);
        }

        int n = gcAll(gc(50, 3));

        assertThat(n).isEqualTo(8);
        assertThat(target.maxConcurrent.get()).isLessThanOrEqualTo(3);
    }

    int gcAll(AllocGarbageCollector gc) {
        try {
            return gc.collectAll();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void forcedGcOfOneTerminalAlloc() throws Exception {
        terminal("a", 1, 5);
        terminal("b", 2, 5);

        gc(50, 2).collect("b");

        assertThat(target.destroyed).containsExactly("b");
        assertThat(counter("berth.client.gc.allocs.destroyed", "reason", "forced")).isEqualTo(1);
    }

    @Test
    void forcedGcOfALiveAllocIsRefusedWithNomadsTextAndChangesNothing() throws IOException {
        live("l");

        assertThatExceptionOfType(NotEligibleForGcException.class).isThrownBy(() -> gc(50, 2).collect("l"))
                .withMessage("No such allocation on client, or allocation not eligible for GC");
        assertThat(root.resolve("l")).exists();
        assertThatExceptionOfType(UnknownAllocException.class).isThrownBy(() -> gc(50, 2).collect("nope"));
    }

    @Test
    void failedDestroysAreCountedAndThePassEnds() throws IOException {
        terminal("a", 1, 5);
        terminal("b", 2, 5);
        live("l");
        target.failDestroys = true;

        var result = gc(1, 2).collect();

        assertThat(result.failures()).isEqualTo(2);
        assertThat(counter("berth.client.gc.failures")).isEqualTo(2);
        assertThat(root.resolve("a")).exists();
    }

    @Test
    void anUnreadableDiskUsageIsAFailureButTheCountPolicyStillApplies() throws IOException {
        terminal("a", 1, 5);
        live("l");
        var props = new GcProperties(1, 80, 70, Duration.ofMinutes(1), 2);
        var metrics = new GcMetrics(new BerthMetrics(registry, MetricsNaming.PROMETHEUS, "h", "n", "dc1", ""));
        var gc = new AllocGarbageCollector(target, () -> {
            throw new IOException("statvfs failed");
        }, props, metrics, Clock.systemUTC(), Duration.ofSeconds(10));

        gc.collect();

        assertThat(target.destroyed).containsExactly("a");
        assertThat(counter("berth.client.gc.failures")).isGreaterThanOrEqualTo(1);
    }

    @Test
    void theRealDiskUsageReadsTheAllocDirsFilesystem() throws IOException {
        DiskUsage.Usage u = new StatvfsDiskUsage(root.resolve("allocs")).read();

        assertThat(u.diskUsedPercent()).isBetween(0.0, 100.0).isGreaterThan(0.0);
        assertThat(u.inodeUsedPercent()).isBetween(0.0, 100.0);
        var store = Files.getFileStore(root);
        double expected = 100.0 * (store.getTotalSpace() - store.getUnallocatedSpace())
                / (store.getTotalSpace() - store.getUnallocatedSpace() + store.getUsableSpace());
        assertThat(u.diskUsedPercent()).isCloseTo(expected, org.assertj.core.data.Offset.offset(2.0));
    }
}
