package dev.berth.config;

import java.util.Objects;

/**
 * The node's stable identity: generated once, persisted in the state database, the same after every restart.
 *
 * @param id the node ID (a UUID string)
 */
public record NodeIdentity(String id) {

    public NodeIdentity {
        Objects.requireNonNull(id, "'id' must not be null");
        if (id.isBlank()) {
            throw new IllegalArgumentException("'id' must not be empty");
        }
    }

    /** The first 8 characters, used in names that must stay short (cgroup parents). */
    public String shortId() {
        return id.length() > 8 ? id.substring(0, 8) : id;
    }
}
