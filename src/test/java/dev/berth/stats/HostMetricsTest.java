package dev.berth.stats;

import java.util.List;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.berth.config.BerthMetrics;
import dev.berth.config.MetricsNaming;
import dev.berth.support.Exposition;

import static org.assertj.core.api.Assertions.assertThat;

class HostMetricsTest {

    private static final HostDiskStats ROOT = HostDiskStats.of("/dev/vda1", "/", 1000, 400, 300, 100, 60);
    private static final HostDiskStats DATA = HostDiskStats.of("/dev/vdb", "/data", 5000, 1000, 4000, 10, 5);

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    private HostMetrics metrics(MetricsNaming naming) {
        return new HostMetrics(new BerthMetrics(registry, naming, "h1", "n1", "dc1", ""));
    }

    private static HostStats stats(long memTotal, double busy0, List<HostDiskStats> disks) {
        return new HostStats(new HostMemoryStats(memTotal, 600, 300, 100),
                List.of(new HostCpuStats("cpu0", 10, 5, 100 - busy0, busy0, busy0 * 20),
                        new HostCpuStats("cpu1", 1, 1, 98, 2, 40)),
                disks, HostDiskStats.EMPTY, 77, 1, busy0 * 20 + 40);
    }

    @Test
    void nothingIsRegisteredBeforeTheFirstSnapshot() {
        metrics(MetricsNaming.PROMETHEUS);

        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void gaugesFollowTheLatestSnapshotInBaseUnits() {
        HostMetrics host = metrics(MetricsNaming.PROMETHEUS);
        host.onHostStats(stats(1000, 50, List.of(ROOT)));
        host.onHostStats(stats(2000, 25, List.of(ROOT)));

        Exposition e = Exposition.parse(registry.scrape());
        assertThat(e.value("berth_host_memory_total_bytes")).isEqualTo(2000);
        assertThat(e.value("berth_host_memory_available_bytes")).isEqualTo(600);
        assertThat(e.value("berth_host_memory_used_bytes")).isEqualTo(300);
        assertThat(e.value("berth_host_memory_free_bytes")).isEqualTo(100);
        assertThat(e.value("berth_host_uptime_seconds")).isEqualTo(77);
        assertThat(e.value("berth_host_cpu_busy_ratio{cpu=\"cpu0\"}")).isEqualTo(0.25);
        assertThat(e.value("berth_host_cpu_idle_ratio{cpu=\"cpu0\"}")).isEqualTo(0.75);
        assertThat(e.value("berth_host_cpu_user_ratio{cpu=\"cpu1\"}")).isEqualTo(0.01);
        assertThat(e.value("berth_host_disk_used_bytes{disk=\"/dev/vda1\"}")).isEqualTo(600);
        assertThat(e.value("berth_host_disk_usage_ratio{disk=\"/dev/vda1\"}")).isCloseTo(2.0 / 3, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(e.value("berth_host_disk_inodes_usage_ratio{disk=\"/dev/vda1\"}")).isEqualTo(0.4);
        assertThat(e.types().keySet()).noneMatch(name -> name.contains("ticks"));
    }

    @Test
    void diskSeriesAppearAndDisappearWithPartitions() {
        HostMetrics host = metrics(MetricsNaming.PROMETHEUS);
        host.onHostStats(stats(1000, 50, List.of(ROOT)));
        host.onHostStats(stats(1000, 50, List.of(ROOT, DATA)));
        assertThat(Exposition.parse(registry.scrape()).value("berth_host_disk_size_bytes{disk=\"/dev/vdb\"}")).isEqualTo(5000);

        host.onHostStats(stats(1000, 50, List.of(DATA)));
        String text = registry.scrape();
        assertThat(text).doesNotContain("/dev/vda1").contains("/dev/vdb");
    }

    @Test
    void nomadModeReportsPercentAndCountsTotalTicksEveryTick() {
        HostMetrics host = metrics(MetricsNaming.NOMAD);
        host.onHostStats(stats(1000, 50, List.of(ROOT)));
        host.onHostStats(stats(1000, 25, List.of(ROOT)));

        Exposition e = Exposition.parse(registry.scrape());
        String labels = "datacenter=\"dc1\",host=\"h1\",node_class=\"none\",node_id=\"n1\"";
        assertThat(e.value("nomad_client_host_cpu_total_percent{cpu=\"cpu0\"," + labels + "}")).isEqualTo(25);
        assertThat(e.value("nomad_client_host_cpu_total_ticks{cpu=\"cpu0\"," + labels + "}")).isEqualTo(500);
        // counter incremented by TotalTicks on each sample: 50×20 + 25×20
        assertThat(e.value("nomad_client_host_cpu_total_ticks_count_total{cpu=\"cpu0\"," + labels + "}")).isEqualTo(1500);
        assertThat(e.value("nomad_client_host_disk_used_percent{datacenter=\"dc1\",disk=\"/dev/vda1\",host=\"h1\",node_class=\"none\",node_id=\"n1\"}")).isCloseTo(200.0 / 3, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(e.value("nomad_client_uptime{" + labels + "}")).isEqualTo(77);
    }

    @Test
    void scrapesReadTheSnapshotAndNeverTheOperatingSystem() {
        ScriptedHostStatsSource source = new ScriptedHostStatsSource();
        ManualTicker ticker = new ManualTicker();
        HostStatsCollector collector = new HostStatsCollector(source, java.time.Clock.systemUTC(), ticker,
                java.time.Duration.ofSeconds(1), java.nio.file.Path.of("/alloc"), List.of(metrics(MetricsNaming.PROMETHEUS)));
        collector.start();
        ticker.fire();
        int reads = source.tickReads.get();

        for (int i = 0; i < 20; i++) {
            registry.scrape();
        }
        assertThat(source.tickReads).hasValue(reads);
        assertThat(Exposition.parse(registry.scrape()).value("berth_host_memory_total_bytes")).isEqualTo(8000);
    }
}
