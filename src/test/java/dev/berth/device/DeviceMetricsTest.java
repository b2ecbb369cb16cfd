package dev.berth.device;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricsNaming;
import dev.berth.support.Promtool;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class DeviceMetricsTest {

    private static final DeviceGroupKey T4 = new DeviceGroupKey("nvidia", "gpu", "Tesla T4");

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    private final DeviceStatsIndex index = new DeviceStatsIndex();

    private final InMemoryReservationStore store = new InMemoryReservationStore();

    private DeviceManager manager;

    private QueueStream<List<DeviceGroup>> fingerprints;

    @AfterEach
    void stop() {
        manager.stop();
    }

    private DeviceMetrics start(MetricsNaming naming) {
        return start(naming, true);
    }

    private DeviceMetrics start(MetricsNaming naming, boolean allocationLabels) {
        ScriptedPlugin plugin = new ScriptedPlugin("gpus");
        fingerprints = plugin.nextFingerprintStream();
        DeviceProperties properties = new DeviceProperties(Duration.ofSeconds(5), Duration.ofSeconds(2),
                new DeviceProperties.Example(false, null, "berth", "file", "example", Duration.ofSeconds(1)),
                new DeviceProperties.Nvidia(false, "nvidia-smi", Duration.ofMinutes(1)));
        DeviceMetrics[] metrics = new DeviceMetrics[1];
        manager = new DeviceManager(List.of(plugin), properties, new ControlledSleeper(), index,
                List.of((devices) -> metrics[0].devicesUpdated(devices)));
        DeviceAllocator allocator = new DeviceAllocator(manager, store);
        metrics[0] = new DeviceMetrics(new BerthMetrics(registry, naming, "node1", "node-id", "dc1", ""), manager, index, allocator,
                allocationLabels);
        manager.start();
        allocatorRef = allocator;
        return metrics[0];
    }

    private DeviceAllocator allocatorRef;

    private static DeviceGroup t4(String... ids) {
        return new DeviceGroup("nvidia", "gpu", "Tesla T4", null,
                java.util.Arrays.stream(ids).map((id) -> DeviceInstance.healthy(id, null)).toList());
    }

    private static DeviceStats gpuStats(long utilization, long usedMiB, long totalMiB) {
        Map<String, StatValue> values = new LinkedHashMap<>();
        values.put("GPU utilization", StatValue.ofInt(utilization, "%", ""));
        values.put("Memory state", StatValue.ofIntFraction(usedMiB, totalMiB, "MiB", ""));
        values.put("Power usage", StatValue.notAvailable("W", ""));
        values.put("Temperature", StatValue.ofInt(41, "C", ""));
        if (utilization > 0) { // a busy GPU that counted uncorrected ECC errors; an idle one without ECC reports none
            values.put("ECC L1 errors", StatValue.ofInt(0, "#", ""));
            values.put("ECC memory errors", StatValue.ofInt(2, "#", ""));
        } else {
            values.put("ECC memory errors", StatValue.notAvailable("#", ""));
        }
        return new DeviceStats(values.get("Memory state"), StatObject.of(values), Instant.EPOCH);
    }

    @Test
    void exposesPerInstanceSeriesWithHolderLabelsAndDropsStaleOnes() throws Exception {
        start(MetricsNaming.PROMETHEUS);
        fingerprints.emit(List.of(t4("g1", "g2")));
        await().until(() -> registry.scrape().contains("instance=\"g2\""));
        assertThat(registry.scrape()).contains(
                "berth_device_healthy{alloc_id=\"\",instance=\"g1\",job=\"\",model=\"Tesla T4\",task=\"\",type=\"gpu\",vendor=\"nvidia\"} 1.0");

        index.update("gpus", List.of(DeviceGroupStats.of(T4, Map.of("g1", gpuStats(37, 1024, 15360), "g2", gpuStats(0, 0, 15360)))));
        String scrape = registry.scrape();
        assertThat(scrape).contains("berth_device_utilization_ratio{alloc_id=\"\",instance=\"g1\",job=\"\",model=\"Tesla T4\",task=\"\",type=\"gpu\",vendor=\"nvidia\"} 0.37")
                .contains("berth_device_memory_used_bytes{alloc_id=\"\",instance=\"g1\",job=\"\",model=\"Tesla T4\",task=\"\",type=\"gpu\",vendor=\"nvidia\"} 1.073741824E9")
                .contains("berth_device_memory_total_bytes{alloc_id=\"\",instance=\"g2\"")
                .contains("berth_device_temperature_celsius{")
                // the errors a GPU counted, summed; a GPU without ECC has no series
                .contains("berth_device_ecc_errors{alloc_id=\"\",instance=\"g1\",job=\"\",model=\"Tesla T4\",task=\"\",type=\"gpu\",vendor=\"nvidia\"} 2.0")
                .doesNotContain("berth_device_ecc_errors{alloc_id=\"\",instance=\"g2\"")
                // power is N/A: no series rather than a NaN one
                .doesNotContain("berth_device_power_watts");

        allocatorRef.allocate(new TaskRef("a-1", "train", "trainer"), List.of(new DeviceRequest("gpu", 1)));
        scrape = registry.scrape();
        assertThat(scrape).contains("berth_device_utilization_ratio{alloc_id=\"a-1\",instance=\"g1\",job=\"train\",model=\"Tesla T4\",task=\"trainer\",type=\"gpu\",vendor=\"nvidia\"} 0.37")
                .doesNotContain("berth_device_utilization_ratio{alloc_id=\"\",instance=\"g1\"");

        fingerprints.emit(List.of(t4("g1")));
        await().until(() -> !registry.scrape().contains("berth_device_healthy{alloc_id=\"\",instance=\"g2\""));
        index.update("gpus", List.of(DeviceGroupStats.of(T4, Map.of("g1", gpuStats(50, 1024, 15360)))));
        assertThat(registry.scrape()).doesNotContain("instance=\"g2\"");

        assertPromtoolAccepts(registry.scrape());

        allocatorRef.release("a-1");
        assertThat(registry.scrape()).contains("berth_device_utilization_ratio{alloc_id=\"\",instance=\"g1\",job=\"\",model=\"Tesla T4\",task=\"\",type=\"gpu\",vendor=\"nvidia\"} 0.5")
                .doesNotContain("alloc_id=\"a-1\"");
    }

    /** The exposition passes {@code promtool check metrics} (installed by .ci/test-prereqs.sh). */
    private static void assertPromtoolAccepts(String scrape) throws Exception {
        Promtool.Result result = Promtool.checkMetrics(scrape);
        assertThat(result.exitCode()).as(result.output()).isZero();
    }

    @Test
    void withoutAllocationLabelsSeriesKeepJobAndTask() throws Exception {
        start(MetricsNaming.PROMETHEUS, false);
        fingerprints.emit(List.of(t4("g1")));
        await().until(() -> registry.scrape().contains("instance=\"g1\""));
        allocatorRef.allocate(new TaskRef("a-1", "train", "trainer"), List.of(new DeviceRequest("gpu", 1)));
        assertThat(registry.scrape()).contains(
                "berth_device_healthy{instance=\"g1\",job=\"train\",model=\"Tesla T4\",task=\"trainer\",type=\"gpu\",vendor=\"nvidia\"} 1.0")
                .doesNotContain("alloc_id");
    }

    @Test
    void unhealthyInstancesReportZero() {
        start(MetricsNaming.PROMETHEUS);
        fingerprints.emit(List.of(new DeviceGroup("nvidia", "gpu", "Tesla T4", null, List.of(new DeviceInstance("g1", false, "xid 79", null)))));
        await().until(() -> registry.scrape().contains("berth_device_healthy{alloc_id=\"\",instance=\"g1\",job=\"\",model=\"Tesla T4\",task=\"\",type=\"gpu\",vendor=\"nvidia\"} 0.0"));
    }

    @Test
    void nomadNamingUsesNomadStyleNamesPercentAndAHostLabel() {
        start(MetricsNaming.NOMAD);
        fingerprints.emit(List.of(t4("g1")));
        await().until(() -> registry.scrape().contains("nomad_client_device_healthy{"));
        index.update("gpus", List.of(DeviceGroupStats.of(T4, Map.of("g1", gpuStats(37, 1024, 15360)))));
        assertThat(registry.scrape()).contains(
                "nomad_client_device_utilization{alloc_id=\"\",datacenter=\"dc1\",host=\"node1\",instance=\"g1\",job=\"\",model=\"Tesla T4\","
                        + "node_class=\"none\",node_id=\"node-id\",task=\"\",type=\"gpu\",vendor=\"nvidia\"} 37.0",
                "nomad_client_device_memory_size{", "nomad_client_device_memory_used{")
                .doesNotContain("berth_device");
        try {
            assertPromtoolAccepts(registry.scrape());
        }
        catch (Exception ex) {
            throw new AssertionError(ex);
        }
    }
}
