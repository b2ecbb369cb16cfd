package dev.berth.monitoring;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.monitoring.PrometheusServer.Series;
import dev.berth.monitoring.PrometheusServer.Target;
import dev.berth.support.AgentJvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * The shipped rules and dashboard against a real Prometheus scraping a real fleet: three agents in their own JVMs, two
 * in datacenter dc1 with Prometheus naming (one with devices: the NVIDIA plugin reading real-format nvidia-smi output
 * and the example plugin with one unhealthy instance) and one in dc2 with Nomad naming, each running a raw_exec task.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FleetMonitoringTest {

    static final Path RULES = Path.of("helm/berth/files/prometheus/berth-rules.yml");
    static final Path DASHBOARD = Path.of("helm/berth/files/grafana/berth-fleet.json");
    private static final Set<String> ALL_NODES = Set.of("node-a", "node-b", "node-c");
    private static final long TASK_MEMORY_MB = 64;

    @TempDir
    static Path tmp;
    private final List<AgentJvm> agents = new ArrayList<>();
    private PrometheusServer prometheus;
    private AgentJvm nodeB;

    @BeforeAll
    void startFleetAndPrometheus() throws Exception {
        Path smi = tmp.resolve("smi/nvidia-smi");
        Files.createDirectories(smi.getParent());
        try (InputStream in = getClass().getResourceAsStream("/nvidia/fake-nvidia-smi.sh")) {
            Files.copy(in, smi);
        }
        Files.setPosixFilePermissions(smi, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path exampleDevices = Files.createDirectories(tmp.resolve("example-devices"));
        Files.writeString(exampleDevices.resolve("dev0"), "ok\n");
        Files.writeString(exampleDevices.resolve("dev1"), "unhealthy: fan stuck\n");

        AgentJvm a = new AgentJvm(tmp.resolve("a"), "--berth.datacenter=dc1", "--berth.name=node-a",
                "--berth.devices.stats-interval=1s", "--berth.devices.nvidia.enabled=true", "--berth.devices.nvidia.smi-path=" + smi,
                "--berth.devices.example.enabled=true", "--berth.devices.example.dir=" + exampleDevices);
        nodeB = new AgentJvm(tmp.resolve("b"), "--berth.datacenter=dc1", "--berth.name=node-b");
        AgentJvm c = new AgentJvm(tmp.resolve("c"), "--berth.datacenter=dc2", "--berth.name=node-c", "--berth.metrics.naming=nomad");
        agents.addAll(List.of(a, nodeB, c));
        for (AgentJvm agent : agents) {
            agent.start();
        }
        prometheus = new PrometheusServer(Files.createDirectories(tmp.resolve("prometheus"))).start(RULES, List.of(
                new Target("127.0.0.1:" + a.port(), "node-a", "dc1"), new Target("127.0.0.1:" + nodeB.port(), "node-b", "dc1"),
                new Target("127.0.0.1:" + c.port(), "node-c", "dc2")));
        await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(500))
                .until(() -> prometheus.isReady() && a.isReady() && nodeB.isReady() && c.isReady());
        int n = 0;
        for (AgentJvm agent : agents) {
            String id = "5e1b0000-0000-4000-8000-00000000000" + n++;
            agent.putAlloc(id, busyAlloc(id));
        }
    }

    @AfterAll
    void stopAll() throws InterruptedException {
        if (prometheus != null) {
            prometheus.close();
        }
        for (AgentJvm agent : agents) {
            agent.close();
        }
    }

    /** A raw_exec task that prints a line and burns a little CPU every 200 ms, forever. */
    static String busyAlloc(String id) {
        return """
                {"ID": "%s", "Name": "web.app[0]", "JobID": "web", "TaskGroup": "app", "AllocModifyIndex": 1,
                 "Job": {"ID": "web", "Name": "web", "Type": "service", "TaskGroups": [{"Name": "app",
                   "Tasks": [{"Name": "server", "Driver": "raw_exec",
                     "Config": {"command": "/bin/sh", "args": ["-c", "while :; do echo tick; i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done; sleep 0.2; done"]},
                     "Resources": {"CPU": 100, "MemoryMB": %d}}]}]}}""".formatted(id, TASK_MEMORY_MB);
    }

    @Test
    @Order(1)
    void promtoolAcceptsTheRules() throws Exception {
        Process check = new ProcessBuilder(PrometheusServer.binary("promtool").toString(), "check", "rules", RULES.toString())
                .redirectErrorStream(true).start();
        String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(check.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(check.exitValue()).as(output).isZero();
        assertThat(output).contains("SUCCESS");
    }

    @Test
    @Order(2)
    void everyRecordingRuleHasSeriesFromTheLiveFleet() {
        for (String rule : recordingRules()) {
            Set<String> expectedNodes = rule.startsWith("datacenter:") ? Set.of()
                    : rule.contains("device") ? Set.of("node-a") : ALL_NODES;
            await(rule).atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
                List<Series> series = prometheus.query(rule);
                assertThat(series).as(rule).isNotEmpty();
                if (!expectedNodes.isEmpty()) {
                    assertThat(series.stream().map((s) -> s.label("node")).collect(Collectors.toSet())).as(rule)
                            .isEqualTo(expectedNodes);
                }
            });
        }
    }

    @Test
    @Order(3)
    void everyDashboardQueryAndVariableReturnsSeries() throws IOException {
        JsonNode dashboard = JsonMapper.builder().build().readTree(Files.readString(DASHBOARD));
        List<String> queries = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                queries.add(target.path("expr").asString());
            }
        }
        assertThat(queries).hasSizeGreaterThan(20);
        for (String query : queries) {
            String concrete = query.replace("$datacenter", ".*").replace("$node", ".*");
            await(query).atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> assertThat(prometheus.query(concrete)).as(concrete).isNotEmpty());
        }
        assertThat(prometheus.labelValues("datacenter", "node:berth_host_cpu_busy:ratio")).containsExactly("dc1", "dc2");
        assertThat(prometheus.labelValues("node", "node:berth_host_cpu_busy:ratio{datacenter=~\"dc1\"}")).containsExactly("node-a", "node-b");
    }

    @Test
    @Order(4)
    void crossNodeSumsAddUpAcrossNamingModes() throws Exception {
        long hostMemory = JsonMapper.builder().build().readTree(agents.getFirst().send("GET", "/v1/client/stats", null).body())
                .path("Memory").path("Total").asLong();
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            // the three agents share this host: every node reports its memory, whatever its naming mode
            assertThat(byLabel("node:berth_host_memory_total:bytes", "node")).containsOnlyKeys(ALL_NODES)
                    .allSatisfy((node, value) -> assertThat(value).isEqualTo((double) hostMemory));
            assertThat(byLabel("datacenter:berth_host_memory_total:bytes", "datacenter"))
                    .isEqualTo(Map.of("dc1", 2.0 * hostMemory, "dc2", (double) hostMemory));
            assertThat(byLabel("datacenter:berth_nodes_up:count", "datacenter")).isEqualTo(Map.of("dc1", 2.0, "dc2", 1.0));
            // one running task per node; nomad mode's MiB and prometheus mode's bytes agree after the rules
            assertThat(byLabel("datacenter:berth_tasks:count{state=\"running\"}", "datacenter")).isEqualTo(Map.of("dc1", 2.0, "dc2", 1.0));
            assertThat(byLabel("sum by (datacenter) (node:berth_allocated_memory:bytes)", "datacenter"))
                    .isEqualTo(Map.of("dc1", 2.0 * (TASK_MEMORY_MB << 20), "dc2", (double) (TASK_MEMORY_MB << 20)));
            assertThat(byLabel("node:berth_allocations:count{status=\"running\"}", "node"))
                    .isEqualTo(Map.of("node-a", 1.0, "node-b", 1.0, "node-c", 1.0));
            // per-task series add up to the node figures (one rule group: evaluated together, so exactly) and those to the
            // datacenter figures (another group, evaluated at its own moment while the busy tasks' memory moves: closely)
            assertThat(value("sum(task:berth_memory:bytes) - sum(node:berth_tasks_memory:bytes)")).isZero();
            assertThat(value("sum(datacenter:berth_tasks_memory:bytes)"))
                    .isCloseTo(value("sum(node:berth_tasks_memory:bytes)"), org.assertj.core.api.Assertions.withinPercentage(10));
            assertThat(value("count(task:berth_memory:bytes)")).isEqualTo(3.0);
            // the devices of node-a: two GPUs from nvidia-smi (one drops out after the first call) and two example files
            assertThat(byLabel("node:berth_devices_unhealthy:count{type=\"file\"}", "node")).isEqualTo(Map.of("node-a", 1.0));
            assertThat(prometheus.query("device:berth_device_utilization:ratio{device=~\"GPU-aaaa.*\"}")).singleElement()
                    .satisfies((s) -> assertThat(s.value()).isCloseTo(0.37, within(1e-9)));
            assertThat(prometheus.query("device:berth_device_memory_used:bytes{device=~\"GPU-aaaa.*\"}")).singleElement()
                    .satisfies((s) -> assertThat(s.value()).isEqualTo(1024.0 * 1024 * 1024));
        });
    }

    @Test
    @Order(5)
    void alertsFireOnTheLiveFleet() throws Exception {
        // the example plugin's dev1 is unhealthy from the start
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> assertThat(
                prometheus.query("ALERTS{alertname=\"BerthDeviceUnhealthy\", node=\"node-a\", type=\"file\"}")).isNotEmpty());
        assertThat(prometheus.query("ALERTS{alertname=\"BerthAgentDown\"}")).isEmpty();
        // GPU-aaaa of the stand-in nvidia-smi counted 2 uncorrected ECC errors in device memory
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> assertThat(
                prometheus.query("ALERTS{alertname=\"BerthDeviceEccErrors\", node=\"node-a\", device=~\"GPU-aaaa.*\"}")).isNotEmpty());

        nodeB.destroyAllocs();
        nodeB.kill();
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            List<Series> down = prometheus.query("ALERTS{alertname=\"BerthAgentDown\"}");
            assertThat(down).extracting((s) -> s.label("node")).containsExactly("node-b");
            assertThat(down.getFirst().label("alertstate")).isIn("pending", "firing");
            assertThat(byLabel("datacenter:berth_nodes_up:count", "datacenter")).isEqualTo(Map.of("dc1", 1.0, "dc2", 1.0));
        });
    }

    private double value(String query) throws IOException {
        List<Series> result = prometheus.query(query);
        assertThat(result).as(query).hasSize(1);
        return result.getFirst().value();
    }

    private Map<String, Double> byLabel(String query, String label) throws IOException {
        return prometheus.query(query).stream().collect(Collectors.toMap((s) -> s.label(label), Series::value));
    }

    @SuppressWarnings("unchecked")
    static Set<String> recordingRules() {
        try {
            Map<String, Object> file = new Yaml().load(Files.readString(RULES));
            Set<String> out = new TreeSet<>();
            for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
                for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                    if (rule.get("record") != null) {
                        out.add((String) rule.get("record"));
                    }
                }
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
