package dev.berth.config;

/**
 * Which labels {@link BerthMetrics} adds on its own, following Nomad's label sets (task labels from
 * {@code TaskRunner.initLabels}, node labels from {@code Client.setupStatsLabels}).
 * Prometheus mode adds none of them: the scrape target already identifies the node.
 */
public enum MetricScope {
    /** Node metrics (host stats, allocated/unallocated resources): Nomad mode adds {@code node_id}, {@code datacenter},
     *  {@code node_class} ({@code "none"} when empty) and {@code host}. */
    NODE,
    /** Task and allocation metrics: Nomad mode adds only {@code host}; the caller supplies {@code job},
     *  {@code task_group}, {@code alloc_id}, {@code task}, {@code namespace}. */
    TASK,
    /** Agent-internal metrics (hooks, requests, collectors): Nomad mode adds only {@code host}. */
    AGENT
}
