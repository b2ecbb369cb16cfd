package dev.berth.fingerprint;

import java.util.List;

/**
 * Port: keeps the node's events across agent restarts. Implemented by the state module; without an implementation
 * events live in memory only.
 *
 * <p>Contract: both methods may be called under the node lock, so they must be quick (one small transaction) and must
 * not call back into the {@link NodeRegistry}. Failures are thrown; the registry logs them and carries on.
 */
public interface NodeEventStore {

    /** The newest {@code max} stored events, oldest first. */
    List<NodeEvent> recent(int max);

    /** Stores {@code event}, keeping at most the newest {@code keep} events. */
    void append(NodeEvent event, int keep);
}
