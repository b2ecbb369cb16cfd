package dev.berth.config;

/** How metric names are written. */
public enum MetricsNaming {
    /** Prometheus conventions: {@code berth_} prefix, base units, {@code _total} counters. */
    PROMETHEUS,
    /** Nomad's own names and labels ({@code nomad_client_…{host=…}}) so existing dashboards work. */
    NOMAD
}
