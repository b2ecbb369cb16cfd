package dev.berth.config;

import oshi.SystemInfo;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** One OSHI {@link SystemInfo} for the whole agent: creating one per poll costs milliseconds and native memory. */
@Configuration(proxyBeanMethods = false)
class SystemInfoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    SystemInfo systemInfo() {
        return new SystemInfo();
    }
}
