package dev.berth.alloc.gc;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import dev.berth.config.PropertyChecks;

/**
 * Garbage collection of terminal allocations ({@code berth.gc.*}, Nomad's {@code gc_*} client options).
 *
 * @param maxAllocs           allocations (live + terminal) above which the oldest terminal ones are destroyed
 * @param diskUsageThreshold  used-space percentage of the alloc dir's filesystem above which terminal allocs are destroyed
 * @param inodeUsageThreshold used-inode percentage above which terminal allocs are destroyed
 * @param interval            how often the policy is checked
 * @param parallelDestroys    at most this many allocs are destroyed at once
 */
@ConfigurationProperties("berth.gc")
public record GcProperties(
        @DefaultValue("50") int maxAllocs,
        @DefaultValue("80") double diskUsageThreshold,
        @DefaultValue("70") double inodeUsageThreshold,
        @DefaultValue("1m") Duration interval,
        @DefaultValue("2") int parallelDestroys) {

    public GcProperties {
        PropertyChecks.atLeast("berth.gc.max-allocs", maxAllocs, 1);
        PropertyChecks.between("berth.gc.disk-usage-threshold", diskUsageThreshold, 0, 100);
        PropertyChecks.between("berth.gc.inode-usage-threshold", inodeUsageThreshold, 0, 100);
        PropertyChecks.positive("berth.gc.interval", interval);
        PropertyChecks.atLeast("berth.gc.parallel-destroys", parallelDestroys, 1);
    }
}
