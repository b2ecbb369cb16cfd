package dev.berth.stats;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import dev.berth.config.PropertyChecks;

/**
 * Task stats options ({@code berth.stats.*}).
 *
 * @param memoryHighBurst       a task whose cgroup v2 {@code memory.events} {@code high} counter rises by more than this
 *                              between two stats ticks is throttled in a burst: it gets a {@code Memory Throttled} task
 *                              event
 * @param memoryHighBurstQuiet  the shortest time between two {@code Memory Throttled} events of one task; bursts in
 *                              between are counted into the next event
 */
@ConfigurationProperties("berth.stats")
public record StatsProperties(
        @DefaultValue("100") long memoryHighBurst,
        @DefaultValue("5m") Duration memoryHighBurstQuiet) {

    public StatsProperties {
        PropertyChecks.atLeast("berth.stats.memory-high-burst", memoryHighBurst, 0);
        PropertyChecks.positive("berth.stats.memory-high-burst-quiet", memoryHighBurstQuiet);
    }
}
