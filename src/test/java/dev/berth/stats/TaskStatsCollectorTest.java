package dev.berth.stats;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.stats.TaskStatsTarget.TaskKey;

import static org.assertj.core.api.Assertions.assertThat;
import dev.berth.support.TestClock;
import static org.awaitility.Awaitility.await;

class TaskStatsCollectorTest {

    private final CountDownLatch release = new CountDownLatch(1);
    private final Map<String, TaskStatsReader> readerByTask = new ConcurrentHashMap<>();
    private final TestClock clock = new TestClock(java.time.Instant.parse("2026-11-22T00:00:00Z"));
    private TaskStatsCollector collector = new TaskStatsCollector(true, Duration.ofMillis(200), t -> readerByTask.get(t.task()),
            DescriptorBudget.ofProcessLimit(), new TaskCpuCapacity(1000, 1), clock);

    @AfterEach
    void tearDown() {
        release.countDown();
        collector.stop();
    }

    @Test
    void aHangingReaderNeitherDelaysNorBlocksTheOthers() {
        AtomicInteger hangingCalls = new AtomicInteger();
        readerByTask.put("hangs", () -> {
            hangingCalls.incrementAndGet();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException();
            }
            return rss(1);
        });
        readerByTask.put("fast", () -> rss(42));
        collector.register(target("a1", "hangs"));
        collector.register(target("a1", "fast"));

        long started = System.nanoTime();
        collector.collect();
        collector.collect(); // the hung read is still in flight: it is not started a second time
        Duration twoTicks = Duration.ofNanos(System.nanoTime() - started);

        assertThat(twoTicks).isLessThan(Duration.ofSeconds(2)); // bounded by the 200 ms deadline per tick, not by the hang
        assertThat(collector.snapshot("a1", "fast")).hasValueSatisfying(s -> assertThat(s.usage().memory().rss()).isEqualTo(42));
        assertThat(collector.snapshot("a1", "hangs")).isEmpty();
        assertThat(hangingCalls).hasValue(1);

        release.countDown();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            collector.collect();
            assertThat(collector.snapshot("a1", "hangs")).isPresent();
        });
    }

    @Test
    void aReaderIsClosedWhenItsTaskIsUnregisteredOrReplacedButNotWhileItReads() throws Exception {
        AtomicInteger closed = new AtomicInteger();
        CountDownLatch reading = new CountDownLatch(1);
        readerByTask.put("t", new TaskStatsReader() {
            @Override
            public TaskRawSample read() throws java.io.IOException {
                reading.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException();
                }
                return rss(7);
            }

            @Override
            public void close() {
                closed.incrementAndGet();
            }
        });
        collector.register(target("a1", "t"));
        Thread tick = Thread.ofVirtual().start(collector::collect);
        reading.await();

        collector.unregister("a1", "t"); // the read is still running: closing now would pull its files away
        assertThat(closed).hasValue(0);
        release.countDown();
        tick.join();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(closed).hasValue(1));

        collector.register(target("a1", "t"));
        collector.register(target("a1", "t")); // replaced: the first reader of this registration is closed at once
        assertThat(closed).hasValue(2);
        collector.unregister("a1", "t");
        assertThat(closed).hasValue(3);
    }

    @Test
    void moreStuckReadsThanReadThreadsStillLeaveTheOthersRead() {
        collector = new TaskStatsCollector(true, Duration.ofMillis(200), t -> readerByTask.get(t.task()),
                DescriptorBudget.ofProcessLimit(), new TaskCpuCapacity(1000, 1), clock, 1);
        AtomicInteger hangingCalls = new AtomicInteger();
        TaskStatsReader hangs = () -> {
            hangingCalls.incrementAndGet();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException();
            }
            return rss(1);
        };
        for (int i = 0; i < 3; i++) {
            readerByTask.put("hangs" + i, hangs);
            collector.register(target("a1", "hangs" + i));
        }
        for (int i = 0; i < 5; i++) {
            long value = 100 + i;
            readerByTask.put("fast" + i, () -> rss(value));
            collector.register(target("a2", "fast" + i));
        }

        // one read thread, three stuck reads: each stops holding the thread after a tenth of the interval (20 ms)
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            collector.collect();
            assertThat(collector.snapshotsOf("a2")).hasSize(5);
        });
        assertThat(hangingCalls).hasValue(3); // never started twice while stuck
        assertThat(collector.snapshotsOf("a1")).isEmpty();
    }

    @Test
    void readsRunOnNicedPlatformThreadsNotOnTheVirtualThreadScheduler() {
        java.util.concurrent.CompletableFuture<Thread> readBy = new java.util.concurrent.CompletableFuture<>();
        java.util.concurrent.CompletableFuture<String> stat = new java.util.concurrent.CompletableFuture<>();
        readerByTask.put("t", () -> {
            readBy.complete(Thread.currentThread());
            stat.complete(java.nio.file.Files.readString(java.nio.file.Path.of("/proc/thread-self/stat")));
            return rss(1);
        });
        collector.register(target("a1", "t"));

        collector.collect();

        assertThat(readBy.join().isVirtual()).isFalse();
        String fields = stat.join().substring(stat.join().lastIndexOf(')') + 2);
        assertThat(Integer.parseInt(fields.split(" ")[19 - 3])).isGreaterThanOrEqualTo(dev.berth.host.ThreadNiceness.BACKGROUND);
    }

    @Test
    void aFailingReaderKeepsItsLastSnapshotAndTheOthersGoOn() {
        // not a timing test: a tick returns as soon as its reads are done, and on a loaded machine the niced read
        // thread may wait longer than the fixture's 200 ms interval to be scheduled at all
        collector = new TaskStatsCollector(true, Duration.ofSeconds(30), t -> readerByTask.get(t.task()),
                DescriptorBudget.ofProcessLimit(), new TaskCpuCapacity(1000, 1), clock);
        AtomicInteger calls = new AtomicInteger();
        readerByTask.put("flaky", () -> {
            if (calls.incrementAndGet() > 1) {
                throw new java.io.IOException("EIO");
            }
            return rss(7);
        });
        readerByTask.put("ok", () -> rss(calls.get()));
        collector.register(target("a1", "flaky"));
        collector.register(target("a2", "ok"));

        collector.collect();
        collector.collect();

        assertThat(collector.snapshot("a1", "flaky")).hasValueSatisfying(s -> assertThat(s.usage().memory().rss()).isEqualTo(7));
        assertThat(collector.snapshot("a2", "ok")).hasValueSatisfying(s -> assertThat(s.usage().memory().rss()).isEqualTo(2));
        assertThat(collector.snapshotsOf("a2")).hasSize(1);
    }

    /** With no task the tick is not even armed; a registration arms it and the task is sampled without a kick. */
    @Test
    void theTickSleepsWhileNoTaskRunsAndARegistrationWakesIt() {
        readerByTask.put("web", () -> rss(7));
        collector.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> !collector.ticking());

        collector.register(target("a1", "web"));
        assertThat(collector.ticking()).isTrue();
        await().atMost(Duration.ofSeconds(30)).until(() -> collector.snapshot("a1", "web").isPresent());

        collector.unregister("a1", "web");
        await().atMost(Duration.ofSeconds(30)).until(() -> !collector.ticking());
        assertThat(collector.snapshots()).isEmpty();
        collector.stop();
        assertThat(collector.ticking()).isFalse();
    }

    /** An idle agent's tick: with no task, the empty map reaches the listeners once, not every second. */
    @Test
    void withNoTaskTheListenersHearOfTheEmptyMapOnceUntilATaskComes() {
        readerByTask.put("web", () -> rss(5));
        List<Set<TaskKey>> seen = new ArrayList<>();
        collector.addListener(snapshots -> seen.add(Set.copyOf(snapshots.keySet())));

        collector.collect();
        collector.collect();
        collector.collect();
        assertThat(seen).containsExactly(Set.of());

        collector.register(target("a1", "web"));
        collector.collect();
        collector.unregister("a1", "web");
        collector.collect();
        collector.collect();
        assertThat(seen).containsExactly(Set.of(), Set.of(new TaskKey("a1", "web")), Set.of());
        assertThat(collector.snapshots()).isEmpty();
    }

    @Test
    void unregisterDropsTheSnapshotAtOnceAndTellsListeners() {
        readerByTask.put("web", () -> rss(5));
        List<Set<TaskKey>> seen = new ArrayList<>();
        collector.addListener(snapshots -> seen.add(snapshots.keySet()));
        collector.register(target("a1", "web"));
        collector.collect();

        collector.unregister("a1", "web");

        assertThat(collector.snapshots()).isEmpty();
        assertThat(seen).containsExactly(Set.of(new TaskKey("a1", "web")), Set.of());
        Map<TaskKey, TaskStatsSnapshot> before = collector.snapshots();
        collector.collect();
        assertThat(collector.snapshots()).isEqualTo(before);
    }

    @Test
    void everyTickPublishesNewImmutableViews() {
        AtomicInteger reads = new AtomicInteger();
        for (String task : List.of("web", "db", "cache")) {
            readerByTask.put(task, () -> rss(reads.incrementAndGet()));
        }
        collector.register(target("a1", "web"));
        collector.register(target("a1", "db"));
        collector.register(target("a2", "cache"));

        collector.collect();
        Map<TaskKey, TaskStatsSnapshot> first = collector.snapshots();
        List<TaskStatsSnapshot> firstOfA1 = collector.snapshotsOf("a1");
        collector.collect();
        Map<TaskKey, TaskStatsSnapshot> second = collector.snapshots();

        assertThat(first.values()).extracting(s -> s.usage().memory().rss()).containsExactlyInAnyOrder(1L, 2L, 3L);
        assertThat(second.values()).extracting(s -> s.usage().memory().rss()).containsExactlyInAnyOrder(4L, 5L, 6L);
        assertThat(second).containsOnlyKeys(new TaskKey("a1", "web"), new TaskKey("a1", "db"), new TaskKey("a2", "cache"));
        assertThat(second.get(new TaskKey("a2", "cache")).target().task()).isEqualTo("cache");
        assertThat(second.get(new TaskKey("a2", "nope"))).isNull();
        assertThat(Map.copyOf(second)).isEqualTo(second).hasSameHashCodeAs(second);
        assertThat(firstOfA1).extracting(s -> s.usage().memory().rss()).allMatch(rss -> rss <= 3); // the first tick's, still
        assertThat(collector.snapshotsOf("a1")).extracting(s -> s.target().task()).containsExactlyInAnyOrder("web", "db");
        assertThat(collector.snapshotsOf("a1")).extracting(s -> s.usage().memory().rss()).allMatch(rss -> rss > 3);
        assertThat(collector.snapshotsOf("a3")).isEmpty();
        TaskKey key = new TaskKey("a9", "x");
        TaskStatsSnapshot any = second.values().iterator().next();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> second.put(key, any)).isInstanceOf(UnsupportedOperationException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(second::clear).isInstanceOf(UnsupportedOperationException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> collector.snapshotsOf("a1").clear())
                .isInstanceOf(UnsupportedOperationException.class);

        readerByTask.put("late", () -> rss(100));
        collector.register(target("a2", "late"));
        collector.collect();
        assertThat(collector.snapshotsOf("a2")).extracting(s -> s.target().task()).containsExactlyInAnyOrder("cache", "late");

        collector.unregister("a1", "web");
        assertThat(collector.snapshots()).hasSize(3).doesNotContainKey(new TaskKey("a1", "web"));
        assertThat(collector.snapshotsOf("a1")).extracting(s -> s.target().task()).containsExactly("db");
        assertThat(second).hasSize(3).containsKey(new TaskKey("a1", "web")); // a published view never changes
    }

    @Test
    void aTaskWithoutASampleYetIsReadAgainEveryTick() {
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger(3);
        readerByTask.put("web", () -> rss(reads.incrementAndGet()));
        readerByTask.put("slow", () -> {
            if (failures.getAndDecrement() > 0) {
                throw new java.io.IOException("cgroup not ready");
            }
            return rss(1000);
        });
        collector.register(target("a1", "web"));
        collector.collect();
        collector.register(target("a2", "slow")); // registered after the first publish, fails three times

        for (int tick = 0; tick < 3; tick++) {
            collector.collect();
            assertThat(collector.snapshots()).containsOnlyKeys(new TaskKey("a1", "web"));
        }
        collector.collect();

        assertThat(collector.snapshot("a2", "slow")).hasValueSatisfying(s -> assertThat(s.usage().memory().rss()).isEqualTo(1000));
        assertThat(reads.get()).isEqualTo(5);
        assertThat(failures.get()).isEqualTo(-1); // read at every tick
    }

    @Test
    void aReRegisteredTaskKeepsItsLastSnapshotPublishedUntilItsNewReaderSamples() {
        AtomicInteger reads = new AtomicInteger();
        readerByTask.put("web", () -> rss(reads.incrementAndGet()));
        collector.register(target("a1", "web"));
        collector.collect();
        assertThat(collector.snapshot("a1", "web")).hasValueSatisfying(s -> assertThat(s.usage().memory().rss()).isEqualTo(1));

        readerByTask.put("web", () -> rss(100 + reads.incrementAndGet()));
        collector.register(target("a1", "web")); // a new reader and CPU history (a driver restarted the task)
        assertThat(collector.snapshot("a1", "web")).as("the old sample until the new reader's first")
                .hasValueSatisfying(s -> assertThat(s.usage().memory().rss()).isEqualTo(1));
        collector.collect();
        assertThat(collector.snapshot("a1", "web")).hasValueSatisfying(s -> assertThat(s.usage().memory().rss()).isEqualTo(102));
        assertThat(collector.snapshots()).hasSize(1);
        collector.collect();
        assertThat(collector.snapshot("a1", "web")).hasValueSatisfying(s -> assertThat(s.usage().memory().rss()).isEqualTo(103));
    }

    @Test
    void withPublishingOffNothingIsRegisteredOrTicked() {
        collector = new TaskStatsCollector(false, Duration.ofMillis(200), t -> () -> rss(1), DescriptorBudget.ofProcessLimit(), new TaskCpuCapacity(1000, 1), clock);
        collector.register(target("a1", "web"));
        collector.start();

        collector.collect();

        assertThat(collector.isRunning()).isFalse();
        assertThat(collector.snapshots()).isEmpty();
    }

    @Test
    void startTicksOnItsOwnStopEndsTheTicksAndAStartAgainResumes() {
        AtomicInteger reads = new AtomicInteger();
        readerByTask.put("web", () -> rss(reads.incrementAndGet()));
        collector.register(target("a1", "web"));

        collector.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> reads.get() >= 2);
        collector.stop();

        assertThat(collector.isRunning()).isFalse();
        int atStop = reads.get();
        await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(3)).until(() -> reads.get() <= atStop + 1);

        collector.start(); // a stopped-and-restarted context: reads work again
        await().atMost(Duration.ofSeconds(5)).until(() -> reads.get() >= atStop + 3);
    }

    static TaskStatsTarget target(String alloc, String task) {
        return new TaskStatsTarget(alloc, task, "job", "group", "default", CgroupVersion.NONE, Map.of(), 1, 0);
    }

    static TaskRawSample rss(long bytes) {
        return new TaskRawSample(new TaskMemoryStats(bytes, 0, 0, 0, 0, 0, 0, 0, 0, Set.of(TaskMemoryField.RSS)), TaskCpuTimes.NONE,
                Map.of());
    }
}
