package dev.berth.config;

import java.util.function.Supplier;

/** Port: persists the node's identity so the node ID is generated once and stays stable across restarts. */
public interface NodeIdentityStore {

    /** Returns the stored node ID, or stores and returns {@code generator.get()} when there is none yet. */
    String loadOrCreateNodeId(Supplier<String> generator);
}
