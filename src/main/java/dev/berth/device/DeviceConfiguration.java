package dev.berth.device;

import java.util.List;

import dev.berth.config.BerthMetrics;
import dev.berth.config.BerthProperties;
import dev.berth.config.Sleeper;

import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the device manager, reservations and device metrics; each plugin package wires its own plugin. */
@Configuration(proxyBeanMethods = false)
class DeviceConfiguration {

    @Bean
    DeviceStatsIndex deviceStatsIndex() {
        return new DeviceStatsIndex();
    }

    @Bean
    DeviceManager deviceManager(ObjectProvider<DevicePlugin> plugins, DeviceProperties properties, DeviceStatsIndex index,
            ObjectProvider<DeviceUpdateListener> listeners) {
        // Listeners are resolved lazily: some (metrics, the node) depend on beans that depend on the manager.
        return new DeviceManager(plugins.orderedStream().toList(), properties, Sleeper.system(), index,
                List.of((devices) -> listeners.orderedStream().forEach((listener) -> notify(listener, devices))));
    }

    private static void notify(DeviceUpdateListener listener, List<DeviceGroup> devices) {
        try {
            listener.devicesUpdated(devices);
        }
        catch (RuntimeException ex) {
            LoggerFactory.getLogger(DeviceManager.class).warn("device update listener {} failed", listener, ex);
        }
    }

    @Bean
    DeviceAllocator deviceAllocator(DeviceManager manager, DeviceReservationStore store) {
        return new DeviceAllocator(manager, store);
    }

    @Bean
    DeviceMetrics deviceMetrics(BerthMetrics metrics, DeviceManager manager, DeviceStatsIndex index, DeviceAllocator allocator,
            BerthProperties berth) {
        return new DeviceMetrics(metrics, manager, index, allocator, berth.telemetry().allocationLabels());
    }

    @Bean
    DeviceUsage deviceUsage(DeviceStatsIndex index, DeviceAllocator allocator, ObjectProvider<ProcessOwners> owners,
            ObjectProvider<ForeignProcessListener> foreignListeners) {
        // resolved per call: the owners and listeners live in features that depend on this package
        ProcessOwners lazyOwners = (pids, allocIds) -> owners.getIfAvailable(() -> ProcessOwners.NONE).owners(pids, allocIds);
        ForeignProcessListener lazyListener = (id, group, process, holder) -> foreignListeners.orderedStream()
                .forEach((listener) -> listener.foreignProcess(id, group, process, holder));
        return new DeviceUsage(index, allocator, lazyOwners, List.of(lazyListener));
    }

    @Bean
    DeviceStatsView deviceStatsView(DeviceAllocator allocator, DeviceUsage usage, DeviceManager manager) {
        return new DeviceStatsView(allocator, usage, manager);
    }

    @Bean
    DeviceUsageMetrics deviceUsageMetrics(BerthMetrics metrics, DeviceUsage usage, BerthProperties berth) {
        return new DeviceUsageMetrics(metrics, usage, berth.telemetry().allocationLabels());
    }
}
