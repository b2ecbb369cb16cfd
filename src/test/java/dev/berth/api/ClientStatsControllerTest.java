package dev.berth.api;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.test.web.servlet.assertj.MockMvcTester;

import dev.berth.config.NodeIdentity;
import dev.berth.stats.HostCpuStats;
import dev.berth.stats.HostDiskStats;
import dev.berth.stats.HostMemoryStats;
import dev.berth.stats.HostStats;
import dev.berth.stats.HostStatsCollector;
import dev.berth.stats.HostStatsSource;

import static org.assertj.core.api.Assertions.assertThat;

@WebMvcTest(ClientStatsController.class)
class ClientStatsControllerTest {

    @Autowired
    MockMvcTester mvc;

    @Test
    void theSnapshotIsServedInNomadsHostStatsJson() {
        assertThat(mvc.get().uri("/v1/client/stats")).hasStatusOk().bodyJson().isStrictlyEqualTo("""
                {"Memory":{"Total":8000,"Available":6000,"Used":1500,"Free":5000},
                 "CPU":[{"CPU":"cpu0","User":25.0,"System":12.5,"Idle":50.0,"TotalPercent":50.0,"TotalTicks":1000.0}],
                 "DiskStats":[{"Device":"/dev/vda1","Mountpoint":"/","Size":1000,"Used":600,"Available":300,
                               "UsedPercent":50.0,"InodesUsedPercent":40.0}],
                 "AllocDirStats":{"Device":"","Mountpoint":"","Size":0,"Used":0,"Available":0,"UsedPercent":0.0,
                                  "InodesUsedPercent":0.0},
                 "DeviceStats":[],
                 "Uptime":4242,
                 "Timestamp":1795309323456789123,
                 "CPUTicksConsumed":1000.0}
                """);
    }

    @Test
    void theLocalNodeIdIsAcceptedAndAnyOtherIsAnUnknownNode() {
        assertThat(mvc.get().uri("/v1/client/stats?node_id=node-1")).hasStatusOk();
        assertThat(mvc.get().uri("/v1/client/stats?node_id=other")).hasStatus(404)
                .bodyJson().extractingPath("$.detail").isEqualTo("Unknown node");
    }

    @TestConfiguration
    static class Fixture {
        @Bean
        NodeIdentity nodeIdentity() {
            return new NodeIdentity("node-1");
        }

        /** A real collector whose first (lazy) collection reads this scripted source. */
        @Bean
        HostStatsCollector collector() {
            HostStatsSource source = new HostStatsSource() {
                // ticks chosen so that the first sample (vs zero) gives user 25, system 12.5, idle 50
                public long[][] cpuTicks() {
                    return new long[][] {{200, 0, 100, 400, 100, 0, 0, 0}};
                }

                public double totalComputeMhz() {
                    return 2000;
                }

                public HostMemoryStats memory() {
                    return new HostMemoryStats(8000, 6000, 1500, 5000);
                }

                public List<DiskReading> disks() {
                    return List.of(new DiskReading.Ok(new HostDiskStats("/dev/vda1", "/", 1000, 600, 300, 50.0, 40.0)));
                }

                public HostDiskStats usage(Path dir) {
                    return HostDiskStats.EMPTY;
                }

                public long uptimeSeconds() {
                    return 4242;
                }
            };
            Clock clock = Clock.fixed(java.time.Instant.parse("2026-11-22T01:02:03.456789123Z"), java.time.ZoneOffset.UTC);
            return new HostStatsCollector(source, clock, (interval, tick) -> () -> { }, Duration.ofSeconds(1),
                    Path.of("/tmp/alloc"), List.of());
        }
    }
}
