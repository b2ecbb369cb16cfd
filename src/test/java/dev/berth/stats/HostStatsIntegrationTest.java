package dev.berth.stats;

import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Value;

import dev.berth.support.AgentIntegrationTest;
import dev.berth.support.Exposition;
import dev.berth.support.Http;
import dev.berth.support.Promtool;

import static org.assertj.core.api.Assertions.assertThat;

/** The whole agent in the default (Prometheus) naming mode: real OSHI host stats over REST and Prometheus. */
@AgentIntegrationTest
class HostStatsIntegrationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Value("${local.server.port}")
    int port;

    @Test
    void clientStatsHasNomadsHostStatsShapeWithRealValues() throws Exception {
        HttpResponse<String> response = Http.get(port, "/v1/client/stats");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = JSON.readTree(response.body());
        assertThat(fieldNames(body)).containsExactly("Memory", "CPU", "DiskStats", "AllocDirStats", "DeviceStats",
                "Uptime", "Timestamp", "CPUTicksConsumed");
        assertThat(fieldNames(body.get("Memory"))).containsExactly("Total", "Available", "Used", "Free");
        assertThat(body.get("Memory").get("Total").asLong()).isGreaterThan(0);
        assertThat(body.get("CPU")).hasSize(Runtime.getRuntime().availableProcessors());
        JsonNode cpu0 = body.get("CPU").get(0);
        assertThat(fieldNames(cpu0)).containsExactly("CPU", "User", "System", "Idle", "TotalPercent", "TotalTicks");
        assertThat(cpu0.get("CPU").asString()).isEqualTo("cpu0");
        assertThat(cpu0.get("Idle").asDouble() + cpu0.get("TotalPercent").asDouble()).isCloseTo(100.0,
                org.assertj.core.data.Offset.offset(0.001));
        // a container whose root is overlayfs may have no device-backed mount at all; the VM has its root disk
        for (JsonNode disk : body.get("DiskStats")) {
            assertThat(fieldNames(disk)).containsExactly("Device", "Mountpoint", "Size", "Used", "Available",
                    "UsedPercent", "InodesUsedPercent");
            assertThat(disk.get("Size").asLong()).isPositive();
        }
        JsonNode allocDir = body.get("AllocDirStats");
        assertThat(allocDir.get("Device").asString()).isEmpty();
        assertThat(allocDir.get("Mountpoint").asString()).isEmpty();
        assertThat(allocDir.get("Size").asLong()).isGreaterThan(0);
        assertThat(body.get("DeviceStats").isArray()).isTrue();
        assertThat(body.get("Uptime").asLong()).isGreaterThan(0);
        long nowNanos = Instant.now().toEpochMilli() * 1_000_000L;
        assertThat(body.get("Timestamp").asLong()).isBetween(nowNanos - 120_000_000_000L, nowNanos + 1_000_000_000L);
    }

    @Test
    void clientStatsForAnotherNodeIs404ProblemDetail() throws Exception {
        HttpResponse<String> response = Http.get(port, "/v1/client/stats?node_id=not-this-node");
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(response.body()).get("detail").asString()).isEqualTo("Unknown node");
    }

    @Test
    void prometheusScrapePassesPromtoolWithBerthNames() throws Exception {
        String text = scrapeOnceHostMetricsExist("/actuator/prometheus");
        Promtool.Result result = Promtool.checkMetrics(text);
        assertThat(result.exitCode()).as(result.output()).isZero();

        Exposition exposition = Exposition.parse(text);
        assertThat(exposition.types()).containsEntry("berth_host_memory_total_bytes", "gauge")
                .containsEntry("berth_host_memory_available_bytes", "gauge")
                .containsEntry("berth_host_memory_used_bytes", "gauge")
                .containsEntry("berth_host_memory_free_bytes", "gauge")
                .containsEntry("berth_host_cpu_busy_ratio", "gauge")
                .containsEntry("berth_host_cpu_user_ratio", "gauge")
                .containsEntry("berth_host_cpu_system_ratio", "gauge")
                .containsEntry("berth_host_cpu_idle_ratio", "gauge")
                .containsEntry("berth_host_disk_size_bytes", "gauge")
                .containsEntry("berth_host_disk_used_bytes", "gauge")
                .containsEntry("berth_host_disk_available_bytes", "gauge")
                .containsEntry("berth_host_disk_usage_ratio", "gauge")
                .containsEntry("berth_host_disk_inodes_usage_ratio", "gauge")
                .containsEntry("berth_host_uptime_seconds", "gauge");
        assertThat(exposition.types().keySet()).noneMatch(name -> name.startsWith("nomad_"));
        assertThat(exposition.value("berth_host_memory_total_bytes")).isGreaterThan(0);
        assertThat(exposition.value("berth_host_cpu_idle_ratio{cpu=\"cpu0\"}")).isBetween(0.0, 1.0);
        // bounded labels: Prometheus guidance is to investigate any metric with more than 100 series
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
    void v1MetricsPrometheusFormatIsTheActuatorExposition() throws Exception {
        scrapeOnceHostMetricsExist("/actuator/prometheus");
        // actuator first: meters only appear over time (a GC pause timer, say), so the later scrape is a superset
        HttpResponse<String> actuator = Http.get(port, "/actuator/prometheus");
        HttpResponse<String> ours = Http.get(port, "/v1/metrics?format=prometheus");
        assertThat(ours.statusCode()).isEqualTo(200);
        assertThat(ours.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
        // values move between two scrapes; the families, their types and their series must be the same
        Exposition a = Exposition.parse(ours.body());
        Exposition b = Exposition.parse(actuator.body());
        Set<String> stable = b.types().keySet().stream().filter(n -> !n.startsWith("http_server_requests")).collect(Collectors.toSet());
        assertThat(a.types()).containsAllEntriesOf(b.types().entrySet().stream().filter(e -> stable.contains(e.getKey()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
        assertThat(a.samples().keySet().stream().filter(k -> k.startsWith("berth_host_")).toList())
                .containsExactlyInAnyOrderElementsOf(b.samples().keySet().stream().filter(k -> k.startsWith("berth_host_")).toList());
    }

    @Test
    void v1MetricsJsonHasNomadsSummaryShape() throws Exception {
        scrapeOnceHostMetricsExist("/actuator/prometheus");
        HttpResponse<String> response = Http.get(port, "/v1/metrics");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = JSON.readTree(response.body());
        assertThat(fieldNames(body)).containsExactly("Timestamp", "Gauges", "Points", "Counters", "Samples");
        assertThat(body.get("Timestamp").asString()).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d \\+0000 UTC");
        JsonNode memoryTotal = null;
        for (JsonNode gauge : body.get("Gauges")) {
            assertThat(fieldNames(gauge)).containsExactly("Name", "Value", "Labels");
            if (gauge.get("Name").asString().equals("berth.host.memory.total")) {
                memoryTotal = gauge;
            }
        }
        assertThat(memoryTotal).isNotNull();
        assertThat(memoryTotal.get("Value").asDouble()).isGreaterThan(0);
        assertThat(body.get("Counters")).isNotEmpty();
        assertThat(fieldNames(body.get("Counters").get(0))).containsExactly("Name", "Count", "Rate", "Sum", "Min", "Max",
                "Mean", "Stddev", "Labels");
    }

    /** Host meters appear with the first snapshot, which the collector takes as soon as it starts. */
    private String scrapeOnceHostMetricsExist(String path) throws Exception {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                .until(() -> Http.get(port, path).body().contains("berth_host_memory_total_bytes"));
        return Http.get(port, path).body();
    }

    static List<String> fieldNames(JsonNode node) {
        return node.propertyNames().stream().toList();
    }
}
