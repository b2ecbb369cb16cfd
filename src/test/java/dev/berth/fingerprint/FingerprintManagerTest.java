package dev.berth.fingerprint;

import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.availability.ApplicationAvailabilityBean;
import org.springframework.boot.availability.AvailabilityChangeEvent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class FingerprintManagerTest {

    private final NodeRegistry registry = TestNodes.registry(Clock.fixed(TestNodes.T0, ZoneOffset.UTC));
    private final ApplicationAvailabilityBean availability = new ApplicationAvailabilityBean();
    private final FingerprintReadiness readiness = new FingerprintReadiness(
            event -> availability.onApplicationEvent((AvailabilityChangeEvent<?>) event), registry);
    private FingerprintManager manager;

    @AfterEach
    void stop() {
        if (manager != null) {
            manager.stop();
        }
    }

    private FingerprintManager manager(FingerprintProperties properties, Fingerprinter... fingerprinters) {
        manager = new FingerprintManager(List.of(fingerprinters), registry, readiness, properties);
        return manager;
    }

    @Test
    void runsEveryFingerprinterOnceAtStartSortedByName() {
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        manager(FingerprintProperties.defaults(),
                new Scripted("storage", null, order, r -> FingerprintResult.ofAttributes(Map.of("s", "1"))),
                new Scripted("arch", null, order, r -> FingerprintResult.ofAttributes(Map.of("a", "1"))),
                new Scripted("memory", null, order, r -> new FingerprintResult(Map.of("memory.totalbytes", "2048"), null,
                        new NodeResources.Memory(2), null, Map.of("aws.ec2", "i-1")))).start();

        assertThat(order).containsExactly("arch", "memory", "storage");
        Node node = registry.current();
        assertThat(node.attributes()).containsEntry("a", "1").containsEntry("s", "1").containsEntry("memory.totalbytes", "2048");
        assertThat(node.resources().memory()).isEqualTo(new NodeResources.Memory(2));
        assertThat(node.resources().minDynamicPort()).isEqualTo(20000);
        assertThat(node.links()).containsEntry("aws.ec2", "i-1");
    }

    @Test
    void aFingerprinterFailingAtStartDoesNotStopTheOthers() {
        manager(FingerprintProperties.defaults(),
                new Scripted("a", null, null, r -> {
                    throw new IllegalStateException("no such thing");
                }),
                new Scripted("b", null, null, r -> FingerprintResult.ofAttributes(Map.of("b", "1")))).start();

        assertThat(registry.current().attributes()).containsEntry("b", "1");
        assertThat(registry.current().events()).last().satisfies(e -> {
            assertThat(e.subsystem()).isEqualTo("Fingerprint");
            assertThat(e.message()).isEqualTo("Fingerprinter a failed: no such thing");
        });
    }

    @Test
    void aPeriodicFingerprinterThatFailsKeepsBeingCalledAndItsLaterSuccessLandsOnTheNode() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        java.util.concurrent.CountDownLatch recover = new java.util.concurrent.CountDownLatch(1);
        Scripted flaky = new Scripted("consul", Duration.ofMillis(20), null, r -> {
            int call = calls.incrementAndGet();
            if (call == 2 || call == 3) {
                throw new IllegalStateException("consul unreachable");
            }
            if (call > 3) {
                recover.await();
            }
            return FingerprintResult.ofAttributes(Map.of("consul.version", "v" + call));
        });
        manager(FingerprintProperties.defaults(), flaky).start();
        assertThat(registry.current().attributes()).containsEntry("consul.version", "v1");

        // Nomad stops a periodic fingerprinter after its first error; Berth re-arms it.
        await().atMost(Duration.ofSeconds(5)).until(() -> calls.get() >= 4);
        assertThat(registry.current().attributes()).containsEntry("consul.version", "v1");
        recover.countDown();
        // Calls 2 and 3 failed; any later value is a success after the failures (the fingerprinter keeps running).
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(registry.current().attributes().get("consul.version")).isNotEqualTo("v1"));
        // One event for the failure streak, not one per failed call.
        assertThat(registry.current().events()).filteredOn(e -> e.subsystem().equals("Fingerprint")).hasSize(1);
    }

    @Test
    void attributesAFingerprinterNoLongerReportsAreRemoved() {
        AtomicBoolean oneNumaNode = new AtomicBoolean();
        manager(FingerprintProperties.defaults(), new Scripted("cpu", Duration.ofMillis(10), null, r ->
                FingerprintResult.ofAttributes(oneNumaNode.get()
                        ? Map.of("numa.node0.cores", "0-3")
                        : Map.of("numa.node0.cores", "0-1", "numa.node1.cores", "2-3")))).start();
        assertThat(registry.current().attributes()).containsKeys("numa.node0.cores", "numa.node1.cores");

        oneNumaNode.set(true);

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(registry.current().attributes())
                .containsEntry("numa.node0.cores", "0-3").doesNotContainKey("numa.node1.cores"));
    }

    @Test
    void denylistedFingerprintersDoNotRun() {
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        manager(new FingerprintProperties(Duration.ofSeconds(1), "", List.of("network")),
                new Scripted("network", null, order, r -> FingerprintResult.empty()),
                new Scripted("host", null, order, r -> FingerprintResult.empty())).start();

        assertThat(order).containsExactly("host");
    }

    @Test
    void hostRoundCompletionIsReportedToReadiness() {
        manager(FingerprintProperties.defaults()).start();
        readiness.driverRoundCompleted();

        assertThat(registry.current().status()).isEqualTo(NodeStatus.READY);
    }

    @FunctionalInterface
    interface Body {
        FingerprintResult run(FingerprintRequest request) throws Exception;
    }

    record Scripted(String name, Duration every, List<String> order, Body body) implements Fingerprinter {
        @Override
        public Optional<Duration> period() {
            return Optional.ofNullable(every);
        }

        @Override
        public FingerprintResult fingerprint(FingerprintRequest request) throws Exception {
            if (order != null) {
                order.add(name);
            }
            return body.run(request);
        }
    }
}
