package dev.berth.stats;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HostStatsTickerTest {

    @Test
    void runsAtOnceThenRepeatedlyUntilClosed() {
        AtomicInteger ticks = new AtomicInteger();
        HostStatsTicker.Handle handle = HostStatsTicker.singleThread("test-ticker").every(Duration.ofMillis(5), ticks::incrementAndGet);
        try {
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> ticks.get() >= 3);
        } finally {
            handle.close();
        }
        int afterClose = ticks.get();
        // once closed no new tick starts; one that was already running may still finish
        Awaitility.await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(2))
                .until(() -> ticks.get() <= afterClose + 1);
        assertThat(ticks.get()).isLessThanOrEqualTo(afterClose + 1);
    }
}
