package dev.berth.job;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class KickLoopTest {

    /** A period long enough that every pass seen here was a kick's. */
    private static final Duration NEVER = Duration.ofHours(1);

    /**
     * The loop's thread used to start before the field naming it was set; a thread that ran at once saw itself as stale
     * and ended, so the agent's scheduler sometimes never placed a job. Every start here must give a loop that answers a kick.
     */
    @Test
    void everyStartGivesALoopThatAnswersKicks() {
        AtomicInteger passes = new AtomicInteger();
        KickLoop loop = new KickLoop("test-loop", NEVER, passes::incrementAndGet);
        for (int i = 0; i < 300; i++) {
            loop.start();
            int before = passes.get();
            loop.kick();
            await().atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1)).until(() -> passes.get() > before);
            assertThat(loop.running()).isTrue();
            loop.stop();
        }
        assertThat(loop.running()).isFalse();
    }

    @Test
    void aStopAndStartLeavesOneLoopAndAKickIsNotLostToTheOldOne() {
        AtomicInteger passes = new AtomicInteger();
        KickLoop loop = new KickLoop("test-loop", NEVER, passes::incrementAndGet);
        loop.start();
        loop.stop();
        loop.start();
        loop.kick();
        await().atMost(Duration.ofSeconds(30)).until(() -> passes.get() >= 1);
        assertThat(loop.running()).isTrue();
        loop.stop();
    }

    @Test
    void aFailingPassDoesNotEndTheLoop() {
        AtomicInteger passes = new AtomicInteger();
        KickLoop loop = new KickLoop("test-loop", NEVER, () -> {
            if (passes.incrementAndGet() == 1) {
                throw new IllegalStateException("one bad job");
            }
        });
        loop.start();
        loop.kick();
        await().atMost(Duration.ofSeconds(30)).until(() -> passes.get() == 1);
        loop.kick();
        await().atMost(Duration.ofSeconds(30)).until(() -> passes.get() == 2);
        loop.stop();
    }

    /** A period short enough that passes follow each other at once while the loop is periodic. */
    private static final Duration OFTEN = Duration.ofMillis(1);

    @Test
    void withNothingPeriodicTheLoopWaitsForAKickOnly() {
        AtomicInteger passes = new AtomicInteger();
        AtomicInteger asked = new AtomicInteger();
        KickLoop loop = new KickLoop("test-loop", OFTEN, passes::incrementAndGet, () -> {
            asked.incrementAndGet();
            return false;
        });
        loop.start();
        // an untimed park: no pass can come from the period, however long the test waits
        awaitUntimedWait(loop);
        assertThat(passes.get()).isZero();
        assertThat(asked.get()).isEqualTo(1);

        loop.kick();
        await().atMost(Duration.ofSeconds(30)).until(() -> passes.get() == 1);
        awaitUntimedWait(loop);
        assertThat(passes.get()).isEqualTo(1);
        assertThat(asked.get()).isEqualTo(2); // asked again before the next wait
        loop.stop();
    }

    @Test
    void aRecheckMakesASleepingLoopPeriodicWithoutAPassOfItsOwn() {
        AtomicInteger passes = new AtomicInteger();
        AtomicBoolean work = new AtomicBoolean();
        KickLoop loop = new KickLoop("test-loop", NEVER, passes::incrementAndGet, work::get);
        loop.start();
        awaitUntimedWait(loop);

        work.set(true);
        loop.recheckPeriodic();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(1))
                .until(() -> loop.state() == KickLoop.State.WAITING_FOR_PERIOD && loop.threadState() == Thread.State.TIMED_WAITING);
        assertThat(passes.get()).as("a recheck runs no pass; the first comes a period later").isZero();
        loop.stop();
    }

    @Test
    void passesComeEveryPeriodWhileThereIsWorkAndStopWhenItIsGone() {
        AtomicInteger passes = new AtomicInteger();
        AtomicBoolean work = new AtomicBoolean(true);
        KickLoop loop = new KickLoop("test-loop", OFTEN, passes::incrementAndGet, work::get);
        loop.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> passes.get() >= 3);

        work.set(false); // the pass after which there is nothing left: the loop goes to sleep
        awaitUntimedWait(loop);
        int settled = passes.get();
        loop.recheckPeriodic(); // still nothing to do: it asks again and sleeps on
        awaitUntimedWait(loop);
        assertThat(passes.get()).isEqualTo(settled);
        loop.stop();
        await().atMost(Duration.ofSeconds(30)).until(() -> !loop.running());
    }

    @Test
    void aLoopRestartedWhileAsleepRunsAPassAtOnceAndSleepsAgain() {
        AtomicInteger passes = new AtomicInteger();
        KickLoop loop = new KickLoop("test-loop", OFTEN, passes::incrementAndGet, () -> false);
        loop.start();
        awaitUntimedWait(loop);
        loop.stop();
        loop.start(); // as Spring resumes a paused context: the stop's kick is the new loop's first pass
        await().atMost(Duration.ofSeconds(30)).until(() -> passes.get() == 1);
        awaitUntimedWait(loop);
        assertThat(loop.running()).isTrue();
        loop.stop();
    }

    private static void awaitUntimedWait(KickLoop loop) {
        await().atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                .until(() -> loop.state() == KickLoop.State.WAITING_FOR_KICK && loop.threadState() == Thread.State.WAITING);
    }
}
