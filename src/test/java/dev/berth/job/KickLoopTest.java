package dev.berth.job;

import java.time.Duration;
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
}
