package dev.berth.stats;

import java.time.Duration;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.test.context.TestPropertySource;

import dev.berth.config.BerthProperties;
import dev.berth.config.Hostnames;
import dev.berth.config.NodeIdentity;
import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.Exposition;
import dev.berth.support.Http;
import dev.berth.support.Promtool;

import static org.assertj.core.api.Assertions.assertThat;

/** The whole agent with {@code berth.metrics.naming=nomad}: Nomad's metric names and labels, still promtool-clean. */
@AgentIntegrationTest
@TestPropertySource(properties = "berth.metrics.naming=nomad")
class NomadNamingIntegrationTest {

    @Value("${local.server.port}")
    int port;

    @org.springframework.beans.factory.annotation.Autowired
    NodeIdentity node;

    @org.springframework.beans.factory.annotation.Autowired
    BerthProperties properties;

    @Test
    void scrapeHasNomadNamesAndLabelsAndPassesPromtool() throws Exception {
        Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> Http.get(port, "/actuator/prometheus").body().contains("nomad_client_host_cpu_total_ticks_count"));
        String text = Http.get(port, "/actuator/prometheus").body();
        Promtool.Result result = Promtool.checkMetrics(text);
        assertThat(result.exitCode()).as(result.output()).isZero();

        Exposition exposition = Exposition.parse(text);
        assertThat(exposition.types().keySet()).noneMatch(name -> name.startsWith("berth_"));
        String host = Hostnames.local();
        String nodeLabels = "datacenter=\"" + properties.datacenter() + "\",host=\"" + host + "\",node_class=\"none\",node_id=\""
                + node.id() + "\"";
        // Nomad's exact name, "_total" kept (untyped, which promtool accepts; a gauge named *_total it refuses)
        assertThat(exposition.value("nomad_client_host_memory_total{" + nodeLabels + "}")).isGreaterThan(0);
        assertThat(exposition.types()).containsEntry("nomad_client_host_memory_total", "untyped");
        assertThat(exposition.value("nomad_client_host_memory_available{" + nodeLabels + "}")).isGreaterThan(0);
        assertThat(exposition.types()).containsEntry("nomad_client_host_memory_used", "gauge")
                .containsEntry("nomad_client_host_memory_free", "gauge")
                .containsEntry("nomad_client_host_disk_size", "gauge")
                .containsEntry("nomad_client_host_disk_used", "gauge")
                .containsEntry("nomad_client_host_disk_available", "gauge")
                .containsEntry("nomad_client_host_disk_used_percent", "gauge")
                .containsEntry("nomad_client_host_disk_inodes_percent", "gauge")
                .containsEntry("nomad_client_uptime", "gauge")
                .containsEntry("nomad_client_host_cpu_total_ticks", "gauge")
                .containsEntry("nomad_client_host_cpu_total_ticks_count_total", "counter");
        double idle = exposition.value("nomad_client_host_cpu_idle{cpu=\"cpu0\"," + nodeLabels + "}");
        assertThat(idle).as("percent, not ratio").isBetween(0.0, 100.0);
        assertThat(exposition.value("nomad_client_host_cpu_total_percent{cpu=\"cpu0\"," + nodeLabels + "}") + idle)
                .isCloseTo(100.0, org.assertj.core.data.Offset.offset(0.01));
        // every meter, JVM ones included, carries the host label in Nomad mode
        assertThat(exposition.samples().keySet()).allSatisfy(key -> assertThat(key).contains("host=\"" + host + "\""));
        // (the HTTP server's series grow with the routes this test JVM's shared agent has served, not with requests: their
        // uri label is the route template, never a raw ID)
        assertThat(exposition.seriesPerFamily()).allSatisfy((name, count) -> {
            if (!name.startsWith("http_server_requests")) {
                assertThat(count).as(name).isLessThanOrEqualTo(100);
            }
        });
        assertThat(exposition.samples().keySet()).filteredOn(series -> series.startsWith("http_server_requests"))
                .noneMatch(series -> series.matches(".*uri=\"[^\"]*[0-9a-f]{8}-[0-9a-f]{4}-[^\"]*\".*"));
    }

    @Test
    void v1MetricsJsonUsesNomadsDottedNames() throws Exception {
        // the first host tick registers the gauges, then the per-core counters: a request may fall in between
        Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(Http.get(port, "/v1/metrics").body())
                .contains("\"nomad.client.host.memory.total\"")
                .contains("\"nomad.client.host.cpu.total_percent\"")
                .contains("\"nomad.client.host.cpu.total_ticks_count\""));
    }
}
