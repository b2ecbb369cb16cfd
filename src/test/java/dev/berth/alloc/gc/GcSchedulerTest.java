package dev.berth.alloc.gc;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.berth.alloc.AllocManager.TerminalAlloc;
import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricsNaming;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The schedule survives failing passes (re-arms) and its thread ends on stop. */
class GcSchedulerTest {

    @Test
    void failingPassesAreCountedAndTheScheduleKeepsRunningUntilStopped() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        AtomicInteger calls = new AtomicInteger();
        GcTarget broken = new GcTarget() {
            @Override
            public List<TerminalAlloc> terminalAllocs() {
                calls.incrementAndGet();
                throw new IllegalStateException("state store unavailable");
            }

            @Override
            public int allocCount() {
                return 0;
            }

            @Override
            public boolean isTerminal(String allocId) {
                return false;
            }

            @Override
            public CompletableFuture<Void> destroy(String allocId) {
                return CompletableFuture.completedFuture(null);
            }
        };
        var gc = new AllocGarbageCollector(broken, () -> new DiskUsage.Usage(0, 0), new GcProperties(50, 80, 70, Duration.ofMillis(20), 2),
                new GcMetrics(new BerthMetrics(registry, MetricsNaming.PROMETHEUS, "h", "n", "dc1", "")), Clock.systemUTC(),
                Duration.ofSeconds(5));
        GcScheduler scheduler = new GcScheduler(gc, Duration.ofMillis(20));

        // other cached agent contexts in this JVM have their own berth-gc threads: only ours must end
        var before = java.util.Set.copyOf(Thread.getAllStackTraces().keySet());
        scheduler.start();
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> registry.get("berth.client.gc.runs").counter().count() >= 3);
            assertThat(registry.get("berth.client.gc.failures").counter().count()).isGreaterThanOrEqualTo(3);
            assertThat(scheduler.isRunning()).isTrue();
        } finally {
            scheduler.stop();
        }
        assertThat(scheduler.isRunning()).isFalse();
        await().atMost(Duration.ofSeconds(5)).until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().equals("berth-gc") && !before.contains(t)));
    }
}
