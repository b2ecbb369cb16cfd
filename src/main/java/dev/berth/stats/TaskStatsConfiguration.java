package dev.berth.stats;

import java.nio.file.Path;
import java.time.Clock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.berth.config.BerthMetrics;
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
        double mhzPerCore = hz > 0 ? hz / 1e6 : cpuinfoMhz(Path.of("/proc/cpuinfo"));
        if (mhzPerCore <= 0) {
            log.info("CPU frequency unknown; assuming {} MHz per core for TotalTicks", FALLBACK_MHZ_PER_CORE);
            mhzPerCore = FALLBACK_MHZ_PER_CORE;
        }
        return new TaskCpuCapacity(mhzPerCore * cores, cores);
    }

    /** VMs without cpufreq (this build host) still report the clock in {@code /proc/cpuinfo}; 0 when absent. */
    static double cpuinfoMhz(Path cpuinfo) {
        try (var lines = java.nio.file.Files.lines(cpuinfo)) {
            return lines.filter(l -> l.startsWith("cpu MHz")).map(l -> l.substring(l.indexOf(':') + 1).strip())
                    .mapToDouble(Double::parseDouble).findFirst().orElse(0);
        } catch (java.io.IOException | RuntimeException e) {
            return 0;
        }
    }

    @Bean
    TaskStatsCollector taskStatsCollector(BerthProperties properties, TaskCpuCapacity capacity, Clock clock) {
        BerthProperties.Telemetry telemetry = properties.telemetry();
        return new TaskStatsCollector(telemetry.publishAllocationMetrics(), telemetry.collectionInterval(),
                new TaskStatsReaders(Path.of("/proc"), clock), capacity, clock);
    }

    @Bean
    TaskStatsMetrics taskStatsMetrics(TaskStatsCollector collector, BerthMetrics metrics, BerthProperties properties) {
        TaskStatsMetrics taskMetrics = new TaskStatsMetrics(collector, metrics, properties.telemetry().allocationLabels());
        taskMetrics.bind();
        return taskMetrics;
    }

}
