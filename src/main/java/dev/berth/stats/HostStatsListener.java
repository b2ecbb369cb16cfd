package dev.berth.stats;

/**
 * Receives every new host snapshot on the collector's thread, right after it is published. Implementations must be
 * quick and must not call back into the collector; an exception is logged and does not stop collection.
 */
@FunctionalInterface
public interface HostStatsListener {

    void onHostStats(HostStats stats);
}
