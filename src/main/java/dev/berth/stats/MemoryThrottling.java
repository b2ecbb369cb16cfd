package dev.berth.stats;

import java.time.Duration;
import java.time.Instant;

/**
 * A burst of {@code memory.high} throttling of one task: its cgroup v2 {@code high} counter rose by more than the
 * configured burst ({@code berth.stats.memory-high-burst}) between two stats ticks.
 *
 * @param allocId          the allocation
 * @param task             the task
 * @param at               when the tick that saw it sampled the task
 * @param highRise         how much {@code high} rose between the two reads
 * @param over             the time between the two reads
 * @param events           the counters as read at {@code at}
 * @param suppressedBursts bursts seen since the previous notice and not told (one notice per quiet period)
 */
public record MemoryThrottling(String allocId, String task, Instant at, long highRise, Duration over,
        TaskMemoryEvents events, int suppressedBursts) {
}
