package dev.berth.stats;

import java.io.IOException;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.berth.stats.SampledTask.State;
import dev.berth.stats.TaskStatsTarget.TaskKey;
import dev.berth.support.TestClock;

import static dev.berth.stats.TaskStatsCollectorTest.rss;
import static dev.berth.stats.TaskStatsCollectorTest.target;
import static org.assertj.core.api.Assertions.assertThat;

/** One task's state in the collector: who may read it, and who closes its reader, exactly once. */
class SampledTaskTest {

    private final TestClock clock = new TestClock(Instant.parse("2026-11-22T00:00:00Z"));
    private final AtomicInteger reads = new AtomicInteger();
    private final AtomicInteger closes = new AtomicInteger();

    @Test
    void aClaimedReadSamplesTheTaskAndHandsItBack() {
        SampledTask task = task(new CountingReader(null));
        assertThat(task.snapshot()).isNull();

        assertThat(task.claim()).isTrue();
        assertThat(task.claim()).as("one read at a time").isFalse();
        task.read();

        assertThat(task.state()).isEqualTo(State.IDLE);
        assertThat(task.snapshot().usage().memory().rss()).isEqualTo(1);
        assertThat(reads).hasValue(1);
        assertThat(closes).hasValue(0);
    }

    @Test
    void anIdleTaskIsClosedAtOnceWhenRemovedAndNeverReadAgain() {
        SampledTask task = task(new CountingReader(null));
        task.claim();
        task.read();

        task.remove();
        task.remove();

        assertThat(task.state()).isEqualTo(State.CLOSED);
        assertThat(closes).hasValue(1);
        assertThat(task.snapshot()).as("a removed task publishes nothing").isNull();
        assertThat(task.claim()).isFalse();
    }

    @Test
    void aTaskRemovedWhileQueuedIsClosedByTheReadThreadWithoutReading() {
        SampledTask task = task(new CountingReader(null));
        task.claim();
        task.remove();
        assertThat(task.state()).isEqualTo(State.REMOVED_QUEUED);
        assertThat(closes).hasValue(0);

        task.read();

        assertThat(task.state()).isEqualTo(State.CLOSED);
        assertThat(reads).hasValue(0);
        assertThat(closes).hasValue(1);
        task.unclaim();
        assertThat(closes).as("closed once").hasValue(1);
    }

    @Test
    void aTaskRemovedWhileQueuedIsClosedByTheTickWhenItsReadNeverStarts() {
        SampledTask task = task(new CountingReader(null));
        task.claim();
        task.remove();

        task.unclaim();

        assertThat(task.state()).isEqualTo(State.CLOSED);
        assertThat(closes).hasValue(1);
        task.read();
        assertThat(reads).hasValue(0);
    }

    @Test
    void aClaimGivenBackLeavesTheTaskIdleAndALateReadThreadDoesNotReadIt() {
        SampledTask task = task(new CountingReader(null));
        task.claim();

        task.unclaim();
        task.read();

        assertThat(task.state()).isEqualTo(State.IDLE);
        assertThat(reads).hasValue(0);
        assertThat(task.claim()).isTrue();
    }

    @Test
    void aTaskRemovedDuringItsReadIsClosedByTheReadsEndNotByTheRemover() throws Exception {
        CountDownLatch inRead = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        SampledTask task = task(new CountingReader(() -> {
            inRead.countDown();
            finish.await();
        }));
        task.claim();
        Thread reader = Thread.ofPlatform().start(task::read);
        inRead.await();

        task.remove(); // returns at once although the read is stuck
        assertThat(task.state()).isEqualTo(State.REMOVED_READING);
        assertThat(closes).hasValue(0);
        task.unclaim(); // a tick giving back its claims never closes a reader in use
        assertThat(closes).hasValue(0);

        finish.countDown();
        reader.join();
        assertThat(task.state()).isEqualTo(State.CLOSED);
        assertThat(closes).hasValue(1);
        assertThat(task.snapshot()).as("the sample of a removed task is not kept").isNull();
    }

    @Test
    void aFailedReadKeepsThePreviousSnapshotAndTheTaskReadable() {
        AtomicInteger calls = new AtomicInteger();
        SampledTask task = task(new CountingReader(() -> {
            if (calls.incrementAndGet() == 2) {
                throw new IOException("cgroup gone for a moment");
            }
        }));
        task.claim();
        task.read();
        TaskStatsSnapshot first = task.snapshot();

        task.claim();
        task.read();

        assertThat(task.snapshot()).isSameAs(first);
        assertThat(task.state()).isEqualTo(State.IDLE);
        assertThat(task.claim()).isTrue();
    }

    @Test
    void aReRegisteredTaskStartsWithTheSnapshotOfTheOneItReplaces() {
        SampledTask old = task(new CountingReader(null));
        old.claim();
        old.read();
        TaskStatsSnapshot last = old.snapshot();

        SampledTask replacement = new SampledTask(old.key(), sampler(new CountingReader(null)), old);
        old.remove();

        assertThat(replacement.snapshot()).isNotNull().isSameAs(last);
        assertThat(replacement.state()).isEqualTo(State.IDLE);
    }

    private SampledTask task(TaskStatsReader reader) {
        return new SampledTask(new TaskKey("a1", "web"), sampler(reader));
    }

    private TaskSampler sampler(TaskStatsReader reader) {
        return new TaskSampler(target("a1", "web"), reader, new TaskCpuCapacity(1000, 1), clock);
    }

    /** Something a read does before it returns its sample (blocks, or fails). */
    interface During {
        void run() throws Exception;
    }

    private final class CountingReader implements TaskStatsReader {
        private final During during;

        CountingReader(During during) {
            this.during = during;
        }

        @Override
        public TaskRawSample read() throws IOException {
            reads.incrementAndGet();
            if (during != null) {
                try {
                    during.run();
                } catch (IOException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IOException(e);
                }
            }
            return rss(reads.get());
        }

        @Override
        public void close() {
            closes.incrementAndGet();
        }
    }
}
