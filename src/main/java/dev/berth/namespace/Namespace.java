package dev.berth.namespace;

import java.util.Map;

/**
 * A namespace as Nomad's community edition keeps it: {@code meta} and {@code capabilities} are null when none were given
 * (Nomad's JSON answers {@code null} then); the indexes are the node's modify indexes of its creation and last update.
 */
public record Namespace(String name, String description, Map<String, String> meta, Capabilities capabilities, long createIndex,
                        long modifyIndex) {

    /** The namespace every job, allocation and variable is in unless it names another; it always exists. */
    public static final String DEFAULT = "default";

    /** The wildcard a listing takes for "every namespace"; never a namespace's name. */
    public static final String ALL = "*";

    public Namespace {
        description = description == null ? "" : description;
        meta = meta == null ? null : Map.copyOf(meta);
    }
}
