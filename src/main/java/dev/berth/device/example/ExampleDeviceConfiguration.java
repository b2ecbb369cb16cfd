package dev.berth.device.example;

import java.time.Clock;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.berth.config.Sleeper;
import dev.berth.device.DeviceProperties;

/** Wires the example plugin, off unless {@code berth.devices.example.enabled}. */
@Configuration(proxyBeanMethods = false)
public class ExampleDeviceConfiguration {

    @Bean
    @ConditionalOnProperty(name = "berth.devices.example.enabled", havingValue = "true")
    ExampleDevicePlugin exampleDevicePlugin(DeviceProperties properties, Clock clock) {
        return new ExampleDevicePlugin(properties.example(), Sleeper.system(), clock);
    }
}
