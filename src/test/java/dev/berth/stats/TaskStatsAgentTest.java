package dev.berth.stats;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.env.Environment;

import dev.berth.host.ProcStat;
import dev.berth.host.cgroup.CgroupVersion;
import dev.berth.support.AgentIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The wiring in a full agent: the collector ticks on its own and its meters reach /actuator/prometheus. */
@AgentIntegrationTest
class TaskStatsAgentTest {

    @Autowired
    TaskStatsCollector collector;

    @Autowired
    Environment environment;

    private final String allocId = UUID.randomUUID().toString();
    private Process sleep;

    @AfterEach
    void tearDown() {
        collector.unregister(allocId, "idle");
        if (sleep != null) {
            sleep.destroyForcibly();
        }
    }

    @Test
    void aRegisteredTaskIsSampledByTheRunningCollectorAndScrapedThenItsSeriesGo() throws Exception {
        sleep = new ProcessBuilder("sleep", "300").start();
        collector.register(new TaskStatsTarget(allocId, "idle", "job", "group", "default", CgroupVersion.NONE, Map.of(),
                sleep.pid(), ProcStat.read(sleep.pid()).orElseThrow().startTicks()));

        await().atMost(Duration.ofSeconds(10)).until(() -> collector.snapshot(allocId, "idle").isPresent());
        assertThat(collector.isRunning()).isTrue();
        assertThat(collector.snapshot(allocId, "idle").orElseThrow().usage().memory().rss()).isPositive();
        await().atMost(Duration.ofSeconds(10)).until(() -> scrape().contains("berth_task_memory_rss_bytes{alloc_id=\"" + allocId + "\""));

        collector.unregister(allocId, "idle");

        assertThat(scrape()).doesNotContain(allocId);
    }

    private String scrape() throws Exception {
        String port = environment.getProperty("local.server.port");
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }
}
