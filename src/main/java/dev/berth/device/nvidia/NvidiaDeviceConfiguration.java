package dev.berth.device.nvidia;

import java.time.Clock;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.berth.config.Sleeper;
import dev.berth.device.DeviceProperties;

/** Wires the NVIDIA plugin, off unless {@code berth.devices.nvidia.enabled}. */
@Configuration(proxyBeanMethods = false)
public class NvidiaDeviceConfiguration {

    @Bean
    @ConditionalOnProperty(name = "berth.devices.nvidia.enabled", havingValue = "true")
    NvidiaDevicePlugin nvidiaDevicePlugin(DeviceProperties properties, Clock clock) {
        return new NvidiaDevicePlugin(properties.nvidia().smiPath(), properties.nvidia().fingerprintPeriod(),
                properties.callTimeout(), properties.nvidia().ignoredGpuIds(), Sleeper.system(), clock)
                .withProcessStats(properties.nvidia().processStats(), properties.nvidia().pmon());
    }
}
