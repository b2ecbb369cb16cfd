package dev.berth.alloc.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class RunnerInboxTest {

    @Test
    void aWaitingReaderIsToldOnceAtTheNextMessage() {
        RunnerInbox<String> inbox = new RunnerInbox<>();
        AtomicInteger runs = new AtomicInteger();
        assertThat(inbox.poll()).isNull();
        inbox.arrival().thenRun(runs::incrementAndGet);
        assertThat(runs).hasValue(0);
        inbox.offer("a");
        inbox.offer("b");
        assertThat(runs).as("the reader is told once, at the first message only").hasValue(1);
        assertThat(inbox.poll()).isEqualTo("a");
        assertThat(inbox.poll()).isEqualTo("b");
        assertThat(inbox.poll()).isNull();
        assertThat(runs).hasValue(1);
    }

    /**
     * A consumer that, like the alloc runner's loop, drains the inbox and then waits for the next arrival (continuing on a
     * new thread), against concurrent producers: every message is taken exactly once, in order per producer, and never by
     * two consumers.
     */
    @Test
    void concurrentOffersAreEachTakenOnceByOneConsumerAtATime() throws Exception {
        int producers = 4;
        int perProducer = 20_000;
        RunnerInbox<int[]> inbox = new RunnerInbox<>();
        List<List<Integer>> seen = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            seen.add(new ArrayList<>());
        }
        AtomicBoolean busy = new AtomicBoolean();
        AtomicInteger overlaps = new AtomicInteger();
        CountDownLatch all = new CountDownLatch(producers * perProducer);
        class Consumer implements Runnable {
            @Override
            public void run() {
                while (true) {
                    int[] msg = inbox.poll();
                    if (msg == null) {
                        inbox.arrival().whenComplete((v, e) -> Thread.ofVirtual().start(new Consumer()));
                        return;
                    }
                    if (!busy.compareAndSet(false, true)) {
                        overlaps.incrementAndGet();
                    }
                    seen.get(msg[0]).add(msg[1]); // one consumer at a time: no lock needed when the inbox is right
                    busy.set(false);
                    all.countDown();
                }
            }
        }
        Thread.ofVirtual().start(new Consumer());
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int id = p;
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < perProducer; i++) {
                    inbox.offer(new int[] {id, i});
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(all.await(60, TimeUnit.SECONDS)).as("every message taken").isTrue();
        assertThat(overlaps).as("two consumers at once").hasValue(0);
        for (List<Integer> s : seen) {
            assertThat(s).hasSize(perProducer);
            for (int i = 0; i < perProducer; i++) {
                assertThat(s.get(i)).isEqualTo(i);
            }
        }
    }

    /**
     * An offer at either point where it can race a wait (after the reader found the inbox empty and before it asked for
     * the arrival, or after it asked): the reader is told, and the message is then taken; never left in the inbox with
     * nobody told (the loop would sleep on it).
     */
    @Test
    void anOfferRacingAWaitIsNeverLost() {
        RunnerInbox<String> inbox = new RunnerInbox<>();
        assertThat(inbox.poll()).isNull();
        inbox.offer("before the wait");
        CompletableFuture<Void> arrival = inbox.arrival();
        assertThat(arrival).as("an offer between the empty poll and the wait").isDone();
        assertThat(inbox.poll()).isEqualTo("before the wait");

        assertThat(inbox.poll()).isNull();
        CompletableFuture<Void> next = inbox.arrival();
        assertThat(next).isNotDone();
        assertThat(inbox.arrival()).as("one wait, asked twice, is the same").isSameAs(next);
        inbox.offer("after the wait");
        assertThat(next).as("an offer after the wait began").isDone();
        assertThat(inbox.poll()).isEqualTo("after the wait");
    }
}
