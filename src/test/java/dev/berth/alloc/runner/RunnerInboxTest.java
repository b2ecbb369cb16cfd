package dev.berth.alloc.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class RunnerInboxTest {

    @Test
    void aWaitingCallbackRunsOnceAtTheNextMessage() {
        RunnerInbox inbox = new RunnerInbox();
        AtomicInteger runs = new AtomicInteger();
        assertThat(inbox.pollOrWait(runs::incrementAndGet)).isNull();
        assertThat(runs).hasValue(0);
        inbox.offer("a");
        inbox.offer("b");
        assertThat(runs).as("the callback runs once, for the first message only").hasValue(1);
        assertThat(inbox.pollOrWait(runs::incrementAndGet)).isEqualTo("a");
        assertThat(inbox.pollOrWait(runs::incrementAndGet)).isEqualTo("b");
        assertThat(runs).hasValue(1);
    }

    /**
     * A consumer that, like the alloc runner's loop, drains the inbox and then waits by callback (continuing on a new thread),
     * against concurrent producers: every message is taken exactly once, in order per producer, and never by two consumers.
     */
    @Test
    void concurrentOffersAreEachTakenOnceByOneConsumerAtATime() throws Exception {
        int producers = 4;
        int perProducer = 20_000;
        RunnerInbox inbox = new RunnerInbox();
        List<List<Integer>> seen = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            seen.add(new ArrayList<>());
        }
        java.util.concurrent.atomic.AtomicBoolean busy = new java.util.concurrent.atomic.AtomicBoolean();
        AtomicInteger overlaps = new AtomicInteger();
        CountDownLatch all = new CountDownLatch(producers * perProducer);
        class Consumer implements Runnable {
            @Override
            public void run() {
                while (true) {
                    Object m = inbox.pollOrWait(() -> Thread.ofVirtual().start(new Consumer()));
                    if (m == null) {
                        return;
                    }
                    if (!busy.compareAndSet(false, true)) {
                        overlaps.incrementAndGet();
                    }
                    int[] msg = (int[]) m;
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
     * An offer at either point where it can race a wait (before the callback is registered, or after it is and before the
     * inbox is looked into again): the message is either returned or announced to the callback, exactly one of the two,
     * never left in the inbox with nobody told (the loop would sleep on it).
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(InboxRaceHook.Point.class)
    void anOfferRacingAWaitIsNeverLost(InboxRaceHook.Point point) {
        RunnerInbox[] inbox = new RunnerInbox[1];
        inbox[0] = new RunnerInbox(reached -> {
            if (reached == point) {
                inbox[0].offer("m");
            }
        });
        AtomicInteger told = new AtomicInteger();
        Object got = inbox[0].pollOrWait(told::incrementAndGet);
        assertThat(got != null ? 1 : 0).as("returned").isEqualTo(1 - told.get());
        assertThat(told.get()).as("announced at most once").isLessThanOrEqualTo(1);
        if (got == null) {
            // the announced run takes the message
            assertThat(inbox[0].pollOrWait(() -> { })).isEqualTo("m");
        }
    }
}
