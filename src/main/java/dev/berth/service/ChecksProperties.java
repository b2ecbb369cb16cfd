package dev.berth.service;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import dev.berth.config.PropertyChecks;

/**
 * Service check options ({@code berth.checks.*}).
 *
 * @param maxConcurrent how many check probes may run at the same time (each on a virtual thread); more wait their turn
 */
@ConfigurationProperties("berth.checks")
public record ChecksProperties(@DefaultValue("256") int maxConcurrent) {

    public ChecksProperties {
        PropertyChecks.atLeast("berth.checks.max-concurrent", maxConcurrent, 1);
    }
}
