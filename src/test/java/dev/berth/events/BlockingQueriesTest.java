package dev.berth.events;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BlockingQueriesTest {

    private final ChangeFeed feed = new ChangeFeed(new NodeIndex(new ChangeFeedTest.MemoryIndexStore()));
    /** A fixed "random" source: always the largest jitter. */
    private final RandomGenerator maxJitter = new RandomGenerator() {
        @Override
        public long nextLong() {
            return 0;
        }

        @Override
        public long nextLong(long bound) {
            return bound - 1;
        }
    };
    private final BlockingQueries queries = new BlockingQueries(feed, maxJitter);
    private final Map<String, Long> modifyIndex = new ConcurrentHashMap<>();

    private void write(String id) {
        try (ChangeFeed.Pending pending = feed.begin()) {
            modifyIndex.put(id, pending.index());
            pending.publish(Topic.Allocation, "AllocationUpdated", id, null, null);
        }
    }

    private Indexed<String> read(String id) {
        return new Indexed<>(id, modifyIndex.getOrDefault(id, 0L));
    }

    @Test
    void waitsAreDefaultedCappedAndJitteredAsNomadDoes() {
        assertThat(queries.effectiveWait(null)).isEqualTo(Duration.ofMinutes(5).plusNanos(Duration.ofMinutes(5).toNanos() / 16 - 1));
        assertThat(queries.effectiveWait(Duration.ofHours(1)))
                .isEqualTo(Duration.ofMinutes(10).plusNanos(Duration.ofMinutes(10).toNanos() / 16 - 1));
        assertThat(queries.effectiveWait(Duration.ofSeconds(16))).isEqualTo(Duration.ofSeconds(17).minusNanos(1));
    }

    @Test
    void indexZeroOrAnOlderIndexAnswersAtOnce() {
        write("a");
        long index = modifyIndex.get("a");

        assertThat(queries.query(0, null, c -> true, () -> read("a"))).isCompletedWithValue(new Indexed<>("a", index));
        assertThat(queries.query(index - 1, null, c -> true, () -> read("a"))).isCompletedWithValue(new Indexed<>("a", index));
    }

    @Test
    void aCurrentIndexWaitsForTheWatchedObjectOnly() {
        write("a");
        long index = modifyIndex.get("a");
        CompletableFuture<Indexed<String>> answer = queries.query(index, Duration.ofMinutes(1),
                c -> c.matches(Topic.Allocation, "a"), () -> read("a"));

        write("b");
        assertThat(answer).isNotDone();

        write("a");
        assertThat(answer).isCompletedWithValue(new Indexed<>("a", modifyIndex.get("a")));
    }

    @Test
    void stoppingTheAgentAnswersEveryWaitingQueryAtOnceAndStartingAgainRestoresWaiting() {
        write("a");
        long index = modifyIndex.get("a");
        feed.start();
        CompletableFuture<Indexed<String>> waiting = queries.query(index, Duration.ofMinutes(10), c -> true, () -> read("a"));
        assertThat(waiting).isNotDone();

        feed.stop(); // before the web server's graceful shutdown: no long poll holds it
        assertThat(waiting).isCompletedWithValue(new Indexed<>("a", index));
        assertThat(feed.waiting()).isZero();
        assertThat(queries.query(index, Duration.ofMinutes(10), c -> true, () -> read("a")))
                .as("a query arriving while the agent stops is answered at once").isCompletedWithValue(new Indexed<>("a", index));

        feed.start();
        CompletableFuture<Indexed<String>> again = queries.query(index, Duration.ofMinutes(10), c -> true, () -> read("a"));
        assertThat(again).isNotDone();
        write("a");
        assertThat(again).isCompletedWithValue(new Indexed<>("a", modifyIndex.get("a")));
    }

    @Test
    void aWakeThatDoesNotMoveTheReadKeepsWaiting() {
        write("a");
        long index = modifyIndex.get("a");
        // The watch is broader than what the read answers for: other objects' changes wake it, the read says "not yet".
        CompletableFuture<Indexed<String>> answer = queries.query(index, Duration.ofMinutes(1), c -> true, () -> read("a"));

        write("b");
        assertThat(answer).isNotDone();
        write("a");
        assertThat(answer.join().index()).isEqualTo(modifyIndex.get("a"));
    }

    @Test
    void whenTheWaitRunsOutTheValueIsAnsweredAsItIs() {
        write("a");
        long index = modifyIndex.get("a");

        Indexed<String> answer = queries.query(index, Duration.ofMillis(16), c -> true, () -> read("a")).join();

        assertThat(answer).isEqualTo(new Indexed<>("a", index));
        assertThat(feed.waiting()).isZero();
    }
}
