package dev.berth.api;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

import dev.berth.config.BerthProperties;
import dev.berth.driver.GoDuration;
import dev.berth.fingerprint.Node;

/**
 * {@code GET /v1/agent/self}: {@code {"config": …, "member": …, "stats": …}} with lower-case top-level keys as Nomad.
 * {@code config} is the effective agent configuration with every secret replaced by {@code <redacted>}; {@code member}
 * is the zero serf member of a client-only agent; {@code stats} holds string values only.
 */
record AgentSelfResponse(
        @JsonProperty("config") Map<String, Object> config,
        @JsonProperty("member") Member member,
        @JsonProperty("stats") Map<String, Map<String, String>> stats) {

    static final String REDACTED = "<redacted>";

    static AgentSelfResponse of(BerthProperties properties, Node node, String httpAddress, int httpPort,
                                String version, int numAllocations) {
        return new AgentSelfResponse(config(properties, node, httpAddress, httpPort, version), Member.ZERO,
                Map.of("client", clientStats(node, numAllocations), "runtime", runtimeStats()));
    }

    private static Map<String, Object> config(BerthProperties p, Node node, String httpAddress, int httpPort,
                                              String version) {
        Map<String, Object> client = new LinkedHashMap<>();
        client.put("Enabled", true);
        client.put("NodeClass", p.nodeClass());
        client.put("Meta", p.meta().isEmpty() ? null : p.meta());
        client.put("AllocDir", p.allocDir().toString());
        client.put("MinDynamicPort", p.client().minDynamicPort());
        client.put("MaxDynamicPort", p.client().maxDynamicPort());
        client.put("MaxKillTimeout", GoDuration.format(p.client().maxKillTimeout()));
        Map<String, Object> acl = new LinkedHashMap<>();
        acl.put("Enabled", p.acl().enabled());
        acl.put("AnonymousMetrics", p.acl().anonymousMetrics());
        acl.put("Tokens", p.acl().tokens().isEmpty() ? null : p.acl().tokens().stream()
                .map(t -> Map.of("Name", t.name(), "Secret", REDACTED, "Scope", t.scope().name().toLowerCase(Locale.ROOT)))
                .toList());
        Map<String, Object> telemetry = new LinkedHashMap<>();
        telemetry.put("CollectionInterval", GoDuration.format(p.telemetry().collectionInterval()));
        telemetry.put("PublishAllocationMetrics", p.telemetry().publishAllocationMetrics());
        telemetry.put("AllocationLabels", p.telemetry().allocationLabels());
        telemetry.put("MetricsNaming", p.metrics().naming().name().toLowerCase(Locale.ROOT));
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("Region", "global");
        config.put("Datacenter", p.datacenter());
        config.put("NodeName", node.name());
        config.put("DataDir", p.dataDir().toString());
        config.put("Version", Map.of("Version", version));
        config.put("BindAddr", httpAddress);
        config.put("Ports", Map.of("HTTP", httpPort));
        config.put("Client", client);
        config.put("Server", Map.of("Enabled", false));
        config.put("ACL", acl);
        config.put("Telemetry", telemetry);
        Map<String, Object> drivers = new LinkedHashMap<>();
        drivers.put("docker", Map.of("Enabled", p.drivers().docker().enabled(), "Pull", p.drivers().docker().pull()));
        drivers.put("exec", Map.of("Enabled", p.drivers().exec().enabled()));
        drivers.put("mock_driver", Map.of("Enabled", p.drivers().mock().enabled()));
        drivers.put("raw_exec", Map.of("Enabled", p.drivers().rawExec().enabled()));
        config.put("Drivers", drivers);
        return config;
    }

    private static Map<String, String> clientStats(Node node, int numAllocations) {
        Map<String, String> stats = new LinkedHashMap<>();
        stats.put("node_id", node.id());
        // A standalone agent has no servers and sends no heartbeats.
        stats.put("known_servers", "");
        stats.put("num_allocations", Integer.toString(numAllocations));
        stats.put("last_heartbeat", "0s");
        stats.put("heartbeat_ttl", "0s");
        return stats;
    }

    private static Map<String, String> runtimeStats() {
        String threads = Integer.toString(ManagementFactory.getThreadMXBean().getThreadCount());
        int cpus = Runtime.getRuntime().availableProcessors();
        Map<String, String> stats = new LinkedHashMap<>();
        stats.put("kernel.name", System.getProperty("os.name").toLowerCase(Locale.ROOT));
        stats.put("arch", System.getProperty("os.arch"));
        stats.put("version", "java" + Runtime.version());
        stats.put("max_procs", Integer.toString(cpus));
        // Nomad reports goroutines; the JVM's closest equivalent is its live thread count (under both names).
        stats.put("goroutines", threads);
        stats.put("threads", threads);
        stats.put("cpu_count", Integer.toString(cpus));
        return stats;
    }

    /** A zero serf member (Nomad's client-only agent): empty name and address, status {@code none}. */
    @JsonNaming(PropertyNamingStrategies.UpperCamelCaseStrategy.class)
    record Member(String name, String addr, int port, Map<String, String> tags, String status, int protocolMin,
                  int protocolMax, int protocolCur, int delegateMin, int delegateMax, int delegateCur) {
        static final Member ZERO = new Member("", "", 0, null, "none", 0, 0, 0, 0, 0, 0);
    }

    /** One agent type's health in {@code /v1/agent/health}; {@code message} is omitted when empty (Nomad omitempty). */
    record Health(@JsonProperty("ok") boolean ok,
                  @JsonInclude(JsonInclude.Include.NON_EMPTY)
                  @JsonProperty("message") String message) {
    }

    static final List<String> AGENT_TYPES = List.of("client", "server");
}
