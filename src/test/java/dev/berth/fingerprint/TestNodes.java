package dev.berth.fingerprint;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Node fixtures for tests. */
public final class TestNodes {

    public static final Instant T0 = Instant.parse("2026-11-22T00:00:00Z");

    private TestNodes() {
    }

    public static Node initial() {
        return new Node("6f1c0f5e-0000-4000-8000-000000000001", "node-a", "dc1", "", Map.of(),
                new NodeResources(20000, 32000), Map.of(), Map.of(), Map.of(),
                NodeStatus.INITIALIZING, T0, List.of(new NodeEvent("Node registered", "Cluster", Map.of(), T0)), 1);
    }

    public static NodeRegistry registry(Clock clock) {
        return new NodeRegistry(initial(), clock);
    }
}
