package dev.berth.events;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class EventStreamTest {

    private final ChangeFeed feed = new ChangeFeed(new NodeIndex(new ChangeFeedTest.MemoryIndexStore()), 8);
    private final AtomicBoolean stopped = new AtomicBoolean();

    /** A sink that records what it was given, as a list of indexes, with -1 for a heartbeat. */
    static final class Recording implements EventStream.Sink {
        final List<Long> written = new CopyOnWriteArrayList<>();

        @Override
        public void changes(List<Change> changes) {
            changes.forEach(c -> written.add(c.index()));
        }

        @Override
        public void heartbeat() {
            written.add(-1L);
        }

        List<Long> changes() {
            return written.stream().filter(i -> i > 0).toList();
        }
    }

    private Change alloc(String id) {
        return feed.publish(Topic.Allocation, "AllocationUpdated", id, "default", null);
    }

    private CompletableFuture<EventStream.End> run(EventStream stream, EventStream.Sink sink) {
        return CompletableFuture.supplyAsync(() -> stream.run(sink), r -> Thread.ofVirtual().start(r));
    }

    private EventStream stream(long index, Duration heartbeat) {
        return new EventStream(feed, EventFilter.parse(null, null, c -> null), index, heartbeat, 4, stopped::get);
    }

    @Test
    void startsWithAHeartbeatThenReplaysTheJournalAndFollowsNewChanges() {
        alloc("a");
        alloc("b");
        Recording sink = new Recording();
        CompletableFuture<EventStream.End> end = run(stream(0, Duration.ofMinutes(1)), sink);
        await().until(() -> sink.changes().size() == 2);
        assertThat(sink.written.getFirst()).isEqualTo(-1L);
        for (int i = 0; i < 6; i++) {
            alloc("c" + i);
        }
        await().until(() -> sink.changes().equals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L)));
        stopped.set(true);
        assertThat(end.join()).isEqualTo(EventStream.End.STOPPED);
    }

    @Test
    void aStreamEndsWhenTheFeedReleasesItsWaitersAsTheAgentStops() {
        alloc("a");
        Recording sink = new Recording();
        CompletableFuture<EventStream.End> end = run(new EventStream(feed, EventFilter.parse(null, null, c -> null), 0,
                Duration.ofMinutes(1), 4, feed::released), sink); // wired as the controller wires it
        await().until(() -> sink.changes().size() == 1);

        feed.releaseWaiters(); // the blocking queries stop first: the stream must end, not spin on waits that return at once

        assertThat(end).succeedsWithin(Duration.ofSeconds(30)).isEqualTo(EventStream.End.STOPPED);
        feed.resumeWaiting();
    }

    @Test
    void anIndexResumesAtThatChangeAsNomadDoesAndAnIndexTooOldStartsAtTheOldestHeld() {
        for (int i = 0; i < 5; i++) {
            alloc("a" + i);
        }
        Recording resumed = new Recording();
        run(stream(3, Duration.ofMinutes(1)), resumed);
        await().until(() -> resumed.changes().equals(List.of(3L, 4L, 5L)));

        for (int i = 0; i < 10; i++) {
            alloc("b" + i); // the journal of 8 now holds 8..15
        }
        Recording tooOld = new Recording();
        run(stream(2, Duration.ofMinutes(1)), tooOld);
        await().until(() -> tooOld.changes().equals(List.of(8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L)));
        Recording future = new Recording();
        run(stream(100, Duration.ofMinutes(1)), future);
        alloc("c");
        await().during(Duration.ofMillis(200)).until(() -> future.changes().isEmpty());
        stopped.set(true);
    }

    @Test
    void heartbeatsRepeatWhileIdle() {
        Recording sink = new Recording();
        run(stream(0, Duration.ofMillis(50)), sink);
        await().until(() -> sink.written.size() >= 3);
        assertThat(sink.written).containsOnly(-1L);
        stopped.set(true);
    }

    @Test
    void aStuckConsumerNeverBlocksPublishersAndIsDroppedOnceTheJournalPassesIt() throws Exception {
        alloc("first");
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger writes = new AtomicInteger();
        EventStream.Sink stuck = new EventStream.Sink() {
            @Override
            public void changes(List<Change> changes) throws IOException {
                writes.incrementAndGet();
                try {
                    release.await(); // a client whose socket buffer is full
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
            }

            @Override
            public void heartbeat() {
            }
        };
        CompletableFuture<EventStream.End> end = run(stream(0, Duration.ofMinutes(1)), stuck);
        await().until(() -> writes.get() == 1);
        for (int i = 0; i < 1_000; i++) {
            alloc("x" + i); // must not wait for the stuck subscriber
        }
        release.countDown();
        assertThat(end.get(10, TimeUnit.SECONDS)).isEqualTo(EventStream.End.FELL_BEHIND);
    }

    @Test
    void aFailedWriteEndsTheStream() {
        EventStream.Sink gone = new EventStream.Sink() {
            @Override
            public void changes(List<Change> changes) throws IOException {
                throw new IOException("Broken pipe");
            }

            @Override
            public void heartbeat() {
            }
        };
        CompletableFuture<EventStream.End> end = run(stream(0, Duration.ofMinutes(1)), gone);
        alloc("a");
        assertThat(end.join()).isEqualTo(EventStream.End.CLIENT_GONE);
    }

    @Test
    void aChangeStillBeingWrittenHoldsBackLaterOnesSoNoneIsSkipped() {
        Recording sink = new Recording();
        run(stream(0, Duration.ofMinutes(1)), sink);
        try (ChangeFeed.Pending slow = feed.begin()) {
            alloc("later");
            await().during(Duration.ofMillis(100)).until(() -> sink.changes().isEmpty());
            slow.publish(Topic.Allocation, "AllocationUpdated", "slow", "default", null);
        }
        await().until(() -> sink.changes().equals(List.of(1L, 2L)));
        stopped.set(true);
    }

    @Test
    void theHorizonCanBeReadWhilePublishesFinishConcurrently() throws Exception {
        // a publish removes its index from the in-flight set outside the reserve lock; horizon() must not trip on it
        AtomicBoolean done = new AtomicBoolean();
        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
            while (!done.get()) {
                feed.horizon();
            }
        }, r -> Thread.ofPlatform().start(r));
        Thread writer = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < 50_000; i++) {
                alloc("h" + i);
            }
        });
        writer.join();
        done.set(true);
        reader.get(30, TimeUnit.SECONDS);
        assertThat(feed.horizon()).isEqualTo(50_000);
    }

    @Test
    void filtersByTopicKeyFilterKeyAndNamespace() {
        EventFilter byAlloc = EventFilter.parse(List.of("Allocation:a1"), null, c -> List.of("job-" + c.key()));
        EventFilter byJob = EventFilter.parse(List.of("Allocation:job-a2"), null, c -> List.of("job-" + c.key()));
        EventFilter nodes = EventFilter.parse(List.of("Node"), "*", c -> null);
        EventFilter everything = EventFilter.parse(List.of("*"), "*", c -> null);
        Change a1 = new Change(1, Topic.Allocation, "AllocationUpdated", "a1", "default", null);
        Change a2 = new Change(2, Topic.Allocation, "AllocationUpdated", "a2", "default", null);
        Change other = new Change(3, Topic.Allocation, "AllocationUpdated", "a1", "prod", null);
        Change node = new Change(4, Topic.Node, "NodeRegistration", "n", null, null);
        assertThat(List.of(a1, a2, other, node)).filteredOn(byAlloc).containsExactly(a1);
        assertThat(List.of(a1, a2, other, node)).filteredOn(byJob).containsExactly(a2);
        assertThat(List.of(a1, a2, other, node)).filteredOn(nodes).containsExactly(node);
        assertThat(List.of(a1, a2, other, node)).filteredOn(everything).containsExactly(a1, a2, other, node);
        assertThat(List.of(a1, a2, other, node)).filteredOn(EventFilter.parse(null, null, c -> null))
                .containsExactly(a1, a2, node);
        assertThatThrownBy(() -> EventFilter.parse(List.of("Allocation:a:b"), null, c -> null))
                .hasMessageContaining("Invalid key value pair for topic, topic: Allocation:a:b");
        assertThatThrownBy(() -> EventFilter.parse(List.of("Nope"), null, c -> null)).hasMessageContaining("unknown topic");
    }
}
