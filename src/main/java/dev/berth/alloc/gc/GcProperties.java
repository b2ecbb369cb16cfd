package dev.berth.alloc.gc;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Garbage collection of terminal allocations ({@code berth.gc.*}, Nomad's {@code gc_*} client options).
 *
 * @param maxAllocs           allocations (live + terminal) above which the oldest terminal ones are destroyed
 * @param diskUsageThreshold  used-space percentage of the alloc dir's filesystem above which terminal allocs are destroyed
 * @param inodeUsageThreshold used-inode percentage above which terminal allocs are destroyed
 * @param interval            how often the policy is checked
 * @param parallelDestroys    at most this many allocs are destroyed at once
 */
@Validated
@ConfigurationProperties("berth.gc")
public record GcProperties(
        @DefaultValue("50") @Min(1) int maxAllocs,
        @DefaultValue("80") @Min(0) @Max(100) double diskUsageThreshold,
        @DefaultValue("70") @Min(0) @Max(100) double inodeUsageThreshold,
        @DefaultValue("1m") @NotNull Duration interval,
        @DefaultValue("2") @Min(1) int parallelDestroys) {

    public GcProperties {
        if (interval == null || interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("'interval' must be positive, was " + interval);
        }
    }
}
