package dev.berth.device.nvidia;

import java.io.IOException;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.berth.device.DeviceAllocator;
import dev.berth.device.DeviceProperties;

/** The dcgm-exporter mapping files, when {@code berth.devices.nvidia.job-mapping-dir} is set and the plugin runs. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "berth.devices.nvidia.enabled", havingValue = "true")
class NvidiaJobMappingConfiguration {

    @Bean
    @ConditionalOnProperty(name = "berth.devices.nvidia.job-mapping-dir")
    NvidiaJobMapping nvidiaJobMapping(DeviceProperties properties, NvidiaDevicePlugin plugin, DeviceAllocator allocator) throws IOException {
        return new NvidiaJobMapping(properties.nvidia().jobMappingDir(), properties.nvidia().jobMappingFormat(), plugin, allocator);
    }
}
