package dev.berth.service;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.berth.alloc.spec.ServiceCheckSpec.CheckRestartSpec;
import dev.berth.service.probe.CheckProbe;
import dev.berth.service.probe.ProbeResult;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The scheduler: one timer thread for any number of checks, re-arming replaces, disarming stops and closes, restarts fire. */
class CheckSchedulerTest {

    final List<CheckResult> results = new CopyOnWriteArrayList<>();
    final List<String> restarts = new CopyOnWriteArrayList<>();
    CheckScheduler scheduler = new CheckScheduler(Clock.systemUTC(), 64, (def, result, latency, changed, restart) -> {
        results.add(result);
        if (restart) {
            restarts.add(def.id());
        }
    });

    @AfterEach
    void close() {
        scheduler.close();
    }

    static CheckDefinition def(String id, Duration interval, CheckRestartSpec restart, java.util.function.Supplier<CheckProbe> probe) {
        return new CheckDefinition(id, "alloc-" + id, "g", "t", "svc", "check-" + id, "reg-" + id, "tcp", "healthiness", interval,
                Duration.ofSeconds(1), "", 0, 0, restart, restart == null ? null : "t", probe);
    }

    @Test
    void aThousandChecksShareOneTimerThread() {
        // other schedulers may live in this JVM (cached agent contexts of other test classes): count only the new ones
        java.util.Set<Thread> before = checkTimers();
        Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
        for (int i = 0; i < 1000; i++) {
            AtomicInteger n = runs.computeIfAbsent("c" + i, k -> new AtomicInteger());
            scheduler.arm(def("c" + i, Duration.ofMillis(200), null, () -> timeout -> {
                n.incrementAndGet();
                return new ProbeResult(true, 0, "ok");
            }));
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> runs.values().stream().allMatch(n -> n.get() >= 2));
        java.util.Set<Thread> timers = checkTimers();
        timers.removeAll(before);
        assertThat(timers).hasSize(1);
        assertThat(scheduler.armedCount()).isEqualTo(1000);
        assertThat(scheduler.result("c7").status()).isEqualTo("success");
    }

    static java.util.Set<Thread> checkTimers() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("berth-checks"))
                .collect(java.util.stream.Collectors.toCollection(java.util.HashSet::new));
    }

    @Test
    void armingTheSameIdReplacesAndDisarmingStopsAndCloses() throws Exception {
        AtomicInteger first = new AtomicInteger();
        AtomicInteger closed = new AtomicInteger();
        AtomicInteger second = new AtomicInteger();
        scheduler.arm(def("x", Duration.ofMillis(100), null, () -> probe(first, closed)));
        await().atMost(Duration.ofSeconds(20)).until(() -> first.get() >= 1);
        scheduler.arm(def("x", Duration.ofMillis(100), null, () -> probe(second, closed)));
        await().atMost(Duration.ofSeconds(20)).until(() -> closed.get() == 1 && second.get() >= 2);
        int frozen = first.get();
        assertThat(scheduler.armedCount()).isEqualTo(1);
        scheduler.disarm("x");
        assertThat(closed.get()).isEqualTo(2);
        int after = second.get();
        // a disarmed check never runs again: arm a marker check and wait for it to run twice meanwhile
        AtomicInteger marker = new AtomicInteger();
        scheduler.arm(def("m", Duration.ofMillis(100), null, () -> probe(marker, new AtomicInteger())));
        await().atMost(Duration.ofSeconds(20)).until(() -> marker.get() >= 3);
        assertThat(first.get()).isEqualTo(frozen);
        assertThat(second.get()).isEqualTo(after);
    }

    @Test
    void aFailingCheckWithCheckRestartAsksForARestart() {
        scheduler.arm(def("r", Duration.ofMillis(100), new CheckRestartSpec(2, 0L, false),
                () -> timeout -> ProbeResult.failure("down")));
        await().atMost(Duration.ofSeconds(20)).until(() -> restarts.contains("r"));
        assertThat(results).anyMatch(r -> r.id().equals("r") && r.status().equals("failure") && r.output().equals("down"));
    }

    @Test
    void aProbeThatThrowsIsAFailureAndTheCheckKeepsRunning() {
        AtomicInteger n = new AtomicInteger();
        scheduler.arm(def("boom", Duration.ofMillis(100), null, () -> timeout -> {
            n.incrementAndGet();
            throw new IllegalStateException("kaput");
        }));
        await().atMost(Duration.ofSeconds(20)).until(() -> n.get() >= 2);
        assertThat(scheduler.result("boom").status()).isEqualTo("failure");
        assertThat(scheduler.result("boom").output()).contains("kaput");
    }

    private static CheckProbe probe(AtomicInteger runs, AtomicInteger closed) {
        return new CheckProbe() {
            @Override
            public ProbeResult run(Duration timeout) {
                runs.incrementAndGet();
                return new ProbeResult(true, 0, "ok");
            }

            @Override
            public void close() {
                closed.incrementAndGet();
            }
        };
    }
}
