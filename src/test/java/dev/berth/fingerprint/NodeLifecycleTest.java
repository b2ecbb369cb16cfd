package dev.berth.fingerprint;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.berth.Application;
import dev.berth.config.NodeIdentity;
import dev.berth.driver.DriverFingerprint;
import dev.berth.driver.HealthState;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Whole-agent lifecycle: readiness waits for the first fingerprint; the node ID survives a restart on one data dir. */
class NodeLifecycleTest {

    /** What the scripted driver saw while it was fingerprinted for the first time. */
    static final AtomicReference<ReadinessState> READINESS_DURING_FIRST_FINGERPRINT = new AtomicReference<>();
    static final AtomicReference<NodeStatus> STATUS_DURING_FIRST_FINGERPRINT = new AtomicReference<>();

    @Configuration(proxyBeanMethods = false)
    static class ScriptedDriverConfiguration {
        @Bean
        ScriptedDriver scriptedDriver(ApplicationAvailability availability, org.springframework.beans.factory.ObjectProvider<NodeRegistry> registry) {
            ScriptedDriver driver = new ScriptedDriver("scripted", Duration.ofMillis(50));
            driver.then(() -> {
                READINESS_DURING_FIRST_FINGERPRINT.set(availability.getReadinessState());
                STATUS_DURING_FIRST_FINGERPRINT.set(registry.getObject().current().status());
                return new DriverFingerprint(HealthState.UNHEALTHY, "warming up", Map.of("driver.scripted", "true"));
            });
            driver.thenReturn(HealthState.HEALTHY, "Healthy", Map.of("driver.scripted", "true"));
            return driver;
        }

        /** A listener bean that itself needs the registry (no cycle: listener beans are looked up lazily). */
        @Bean
        RecordingListener recordingListener(NodeRegistry registry) {
            return new RecordingListener(registry);
        }
    }

    static final class RecordingListener implements NodeListener {
        final NodeRegistry registry;
        final java.util.List<Node> seen = new java.util.concurrent.CopyOnWriteArrayList<>();

        RecordingListener(NodeRegistry registry) {
            this.registry = registry;
        }

        @Override
        public void nodeChanged(Node node) {
            seen.add(node);
        }
    }

    private static ConfigurableApplicationContext start(Path dataDir) {
        return new SpringApplicationBuilder(Application.class, ScriptedDriverConfiguration.class)
                .web(WebApplicationType.NONE)
                // Command-line arguments: they outrank the repository's ./application.yml (which sets ./data).
                .run("--berth.data-dir=" + dataDir, "--spring.main.keep-alive=false", "--berth.name=lifecycle-node");
    }

    @Test
    void readinessWaitsForTheFirstFingerprintAndTheNodeIdSurvivesARestart(@TempDir Path dataDir) {
        String firstId;
        try (ConfigurableApplicationContext context = start(dataDir)) {
            assertThat(READINESS_DURING_FIRST_FINGERPRINT.get()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
            assertThat(STATUS_DURING_FIRST_FINGERPRINT.get()).isEqualTo(NodeStatus.INITIALIZING);
            assertThat(context.getBean(ApplicationAvailability.class).getReadinessState())
                    .isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
            NodeRegistry registry = context.getBean(NodeRegistry.class);
            assertThat(registry.current().status()).isEqualTo(NodeStatus.READY);
            assertThat(registry.current().name()).isEqualTo("lifecycle-node");
            // Seed 000 through the whole agent: unhealthy first, healthy on the node afterwards.
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(registry.current().drivers().get("scripted").healthy()).isTrue());
            RecordingListener listener = context.getBean(RecordingListener.class);
            assertThat(listener.seen).isNotEmpty();
            assertThat(listener.seen.getLast().modifyIndex()).isLessThanOrEqualTo(registry.current().modifyIndex());
            assertThat(listener.seen).anySatisfy(n -> assertThat(n.status()).isEqualTo(NodeStatus.READY));
            firstId = context.getBean(NodeIdentity.class).id();
            assertThat(dataDir.resolve("state")).isDirectory();
            assertThat(registry.current().id()).isEqualTo(firstId);
        }

        try (ConfigurableApplicationContext context = start(dataDir)) {
            Node node = context.getBean(NodeRegistry.class).current();
            assertThat(node.id()).isEqualTo(firstId);
            // Node events survive the restart: the first run's driver events, then this run's re-registration.
            assertThat(node.events()).extracting(NodeEvent::message)
                    .containsSubsequence("Node registered", "Healthy", "Node re-registered");
        }
    }
}
