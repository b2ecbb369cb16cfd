package dev.berth.stats;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Clock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.berth.config.BerthProperties;
import oshi.SystemInfo;
import oshi.hardware.CentralProcessor;

@Configuration(proxyBeanMethods = false)
class TaskStatsConfiguration {

    private static final Logger log = LoggerFactory.getLogger(TaskStatsConfiguration.class);

    /** Nomad's fallback when the CPU frequency cannot be read. */
    private static final double FALLBACK_MHZ_PER_CORE = 1000;

    @Bean
    TaskCpuCapacity taskCpuCapacity(ObjectProvider<SystemInfo> systemInfo) {
        CentralProcessor cpu = systemInfo.getIfAvailable(SystemInfo::new).getHardware().getProcessor();
        int cores = Math.max(1, cpu.getLogicalProcessorCount());
        long hz = cpu.getMaxFreq() > 0 ? cpu.getMaxFreq() : cpu.getProcessorIdentifier().getVendorFreq();
        double mhzPerCore = hz > 0 ? hz / 1e6 : FALLBACK_MHZ_PER_CORE;
        if (hz <= 0) {
            log.info("CPU frequency unknown; assuming {} MHz per core for TotalTicks", FALLBACK_MHZ_PER_CORE);
        }
        return new TaskCpuCapacity(mhzPerCore * cores, cores);
    }

    @Bean
    TaskStatsCollector taskStatsCollector(BerthProperties properties, TaskCpuCapacity capacity, Clock clock) {
        BerthProperties.Telemetry telemetry = properties.telemetry();
        return new TaskStatsCollector(telemetry.publishAllocationMetrics(), telemetry.collectionInterval(),
                new TaskStatsReaders(Path.of("/proc"), clock), capacity, clock);
    }

    @Bean
    TaskStatsMetrics taskStatsMetrics(TaskStatsCollector collector, BerthProperties properties) {
        return new TaskStatsMetrics(collector, properties.metrics().naming(), properties.telemetry().allocationLabels(), hostName());
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            String env = System.getenv("HOSTNAME");
            return env == null || env.isBlank() ? "localhost" : env;
        }
    }
}
