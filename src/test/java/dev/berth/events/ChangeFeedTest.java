package dev.berth.events;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChangeFeedTest {

    /** An index store in memory that counts its writes. */
    static final class MemoryIndexStore implements IndexStore {
        final AtomicLong mark = new AtomicLong();
        int writes;

        @Override
        public long highWater() {
            return mark.get();
        }

        @Override
        public void reserveThrough(long highWater) {
            writes++;
            mark.accumulateAndGet(highWater, Math::max);
        }
    }

    private final MemoryIndexStore store = new MemoryIndexStore();
    private final ChangeFeed feed = new ChangeFeed(new NodeIndex(store), 4);

    @Test
    void indexesAreMonotonicAndTheMarkIsWrittenOncePerBlock() {
        for (int i = 1; i <= NodeIndex.BLOCK + 1; i++) {
            assertThat(feed.publish(Topic.Node, "NodeEvent", "n", null, null).index()).isEqualTo(i);
        }
        assertThat(store.writes).isEqualTo(2);
        assertThat(new NodeIndex(store).next()).isGreaterThan(NodeIndex.BLOCK + 1);
    }

    @Test
    void readersNeverSeePastAChangeStillBeingWritten() {
        ChangeFeed.Pending slow = feed.begin();
        Change fast = feed.publish(Topic.Allocation, "AllocationUpdated", "b", null, "B");

        assertThat(feed.horizon()).isEqualTo(slow.index() - 1);
        assertThat(feed.changesAfter(0, c -> true, 10)).isEmpty();

        Change late = slow.publish(Topic.Allocation, "AllocationUpdated", "a", null, "A");

        assertThat(feed.horizon()).isEqualTo(fast.index());
        assertThat(feed.changesAfter(0, c -> true, 10)).containsExactly(late, fast);
        assertThat(feed.changesAfter(late.index(), c -> c.matches(Topic.Allocation, "b"), 10)).containsExactly(fast);
    }

    @Test
    void anAbandonedIndexNoLongerHoldsReadersBack() {
        try (ChangeFeed.Pending abandoned = feed.begin()) {
            feed.publish(Topic.Job, "JobRegistered", "web", null, null);
            assertThat(feed.changesAfter(0, c -> true, 10)).isEmpty();
        }
        assertThat(feed.changesAfter(0, c -> true, 10)).extracting(Change::key).containsExactly("web");
    }

    @Test
    void aPublishedIndexCannotBePublishedTwice() {
        ChangeFeed.Pending pending = feed.begin();
        pending.publish(Topic.Node, "NodeEvent", "n", null, null);

        assertThatThrownBy(() -> pending.publish(Topic.Node, "NodeEvent", "n", null, null))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theJournalKeepsOnlyTheNewestChanges() {
        for (int i = 0; i < 6; i++) {
            feed.publish(Topic.Node, "NodeEvent", "n" + i, null, null);
        }
        assertThat(feed.oldestHeld()).isEqualTo(3);
        assertThat(feed.changesAfter(0, c -> true, 10)).extracting(Change::key).containsExactly("n2", "n3", "n4", "n5");
    }

    @Test
    void aWaiterWakesOnlyForAMatchingChangeAboveItsIndex() {
        long start = feed.publish(Topic.Allocation, "AllocationUpdated", "a", null, null).index();
        CompletableFuture<Long> waiting = feed.awaitChange(start, c -> c.matches(Topic.Allocation, "a"), Duration.ofMinutes(5));

        feed.publish(Topic.Allocation, "AllocationUpdated", "other", null, null);
        assertThat(waiting).isNotDone();
        assertThat(feed.waiting()).isEqualTo(1);

        long hit = feed.publish(Topic.Allocation, "AllocationUpdated", "a", null, null).index();
        assertThat(waiting).isCompletedWithValue(hit);
        assertThat(feed.waiting()).isZero();
    }

    @Test
    void aChangeAlreadyInTheJournalAnswersAtOnce() {
        long before = feed.currentIndex();
        long hit = feed.publish(Topic.Allocation, "AllocationUpdated", "a", null, null).index();

        assertThat(feed.awaitChange(before, c -> true, Duration.ofMinutes(5))).isCompletedWithValue(hit);
    }

    @Test
    void aWaiterWithNoChangeCompletesWithZeroWhenItsTimeRunsOut() {
        CompletableFuture<Long> waiting = feed.awaitChange(feed.currentIndex(), c -> true, Duration.ofMillis(1));

        assertThat(waiting.join()).isZero();
        assertThat(feed.waiting()).isZero();
    }

    @Test
    void theJournalHoldsNoMoreThanItsCapacityHoweverManyChangesPass() {
        for (int i = 0; i < 1_000; i++) {
            feed.publish(Topic.Allocation, "AllocationUpdated", "a" + i, null, new byte[1024]);
        }

        assertThat(feed.held()).isEqualTo(feed.capacity()).isEqualTo(4);
        assertThat(feed.changesAfter(0, c -> true, Integer.MAX_VALUE)).hasSize(4)
                .extracting(Change::key).containsExactly("a996", "a997", "a998", "a999");
    }

    @Test
    void theAgentsJournalTakesItsSizeFromTheEventOptions() {
        ChangeFeed configured = new ChangeFeed(new NodeIndex(new MemoryIndexStore()),
                new EventStreamProperties(Duration.ofSeconds(10), 64, 7));
        for (int i = 0; i < 20; i++) {
            configured.publish(Topic.Node, "NodeEvent", "n", null, null);
        }

        assertThat(configured.capacity()).isEqualTo(7);
        assertThat(configured.held()).isEqualTo(7);
        assertThat(new ChangeFeed(new NodeIndex(new MemoryIndexStore())).capacity()).isEqualTo(ChangeFeed.DEFAULT_CAPACITY);
        assertThatThrownBy(() -> new EventStreamProperties(Duration.ofSeconds(10), 64, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aWaiterBehindTheJournalAnswersAtOnceWithTheLastDiscardedIndex() {
        long before = feed.currentIndex();
        for (int i = 0; i < 6; i++) {
            feed.publish(Topic.Node, "NodeEvent", "n" + i, null, null);
        }

        // the change it waits for may have been one of the two discarded: the caller must read again
        assertThat(feed.awaitChange(before, c -> c.key().equals("n0"), Duration.ofMinutes(5)))
                .isCompletedWithValue(feed.discardedThrough());
        assertThat(feed.discardedThrough()).isEqualTo(before + 2);
        assertThat(feed.awaitChange(feed.discardedThrough(), c -> false, Duration.ofMinutes(5))).isNotDone();
    }
}
