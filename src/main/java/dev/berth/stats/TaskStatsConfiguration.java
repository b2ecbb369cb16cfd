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
import dev.berth.config.CpuClock;
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
        double mhzPerCore = CpuClock.mhzPerCore(cpu);
        if (mhzPerCore <= 0) {
            log.info("CPU frequency unknown; assuming {} MHz per core for TotalTicks", FALLBACK_MHZ_PER_CORE);
            mhzPerCore = FALLBACK_MHZ_PER_CORE;
        }
        return new TaskCpuCapacity(mhzPerCore * cores, cores);
    }

    /** The descriptors the kept-open task files (stats and pressure) may hold, out of the process's limit. */
    @Bean
    DescriptorBudget descriptorBudget() {
        return DescriptorBudget.ofProcessLimit();
    }

    @Bean
    TaskStatsCollector taskStatsCollector(BerthProperties properties, DescriptorBudget budget, TaskCpuCapacity capacity,
            Clock clock) {
        BerthProperties.Telemetry telemetry = properties.telemetry();
        return new TaskStatsCollector(telemetry.publishAllocationMetrics(), telemetry.collectionInterval(),
                new TaskStatsReaders(Path.of("/proc"), clock, budget), budget, capacity, clock);
    }

    @Bean
    TaskStatsMetrics taskStatsMetrics(TaskStatsCollector collector, BerthMetrics metrics, BerthProperties properties) {
        TaskStatsMetrics taskMetrics = new TaskStatsMetrics(collector, metrics, properties.telemetry().allocationLabels());
        taskMetrics.bind();
        return taskMetrics;
    }

    @Bean
    TaskPressureCollector taskPressureCollector(TaskStatsCollector collector, BerthMetrics metrics,
            DescriptorBudget budget) {
        TaskPressureCollector pressure = new TaskPressureCollector(metrics, budget);
        pressure.bind(collector);
        return pressure;
    }

    @Bean
    TaskMemoryEventsCollector taskMemoryEventsCollector(TaskStatsCollector collector, BerthMetrics metrics, StatsProperties stats,
            DescriptorBudget budget) {
        TaskMemoryEventsCollector events = new TaskMemoryEventsCollector(stats.memoryHighBurst(), stats.memoryHighBurstQuiet(),
                new TaskMemoryEventsMetrics(metrics), budget);
        events.bind(collector);
        return events;
    }

}
