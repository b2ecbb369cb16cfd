package dev.berth.config;

import oshi.SystemInfo;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The one OSHI {@link SystemInfo} of the agent. OSHI memoizes its readings, and re-creating it costs milliseconds per
 * poll, so fingerprinting and host stats share this instance.
 */
@Configuration(proxyBeanMethods = false)
class SystemInfoConfiguration {

    @Bean
    SystemInfo systemInfo() {
        return new SystemInfo();
    }
}
