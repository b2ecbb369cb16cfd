package dev.berth.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.berth.alloc.AllocManager;
import dev.berth.config.BerthProperties;
import dev.berth.fingerprint.Node;
import dev.berth.fingerprint.NodeRegistry;
import dev.berth.fingerprint.NodeStatus;

/** {@code GET /v1/agent/self} and {@code GET /v1/agent/health}. */
@RestController
class AgentController {

    private final NodeRegistry registry;
    private final BerthProperties properties;
    private final ObjectProvider<AllocManager> allocs;

    AgentController(NodeRegistry registry, BerthProperties properties, ObjectProvider<AllocManager> allocs) {
        this.registry = registry;
        this.properties = properties;
        this.allocs = allocs;
    }

    @GetMapping("/v1/agent/self")
    AgentSelfResponse self(HttpServletRequest request) {
        Node node = registry.current();
        String version = node.attributes().getOrDefault("berth.version", "dev");
        // Nomad counts every allocation the client holds, terminal ones not yet collected included.
        AllocManager manager = allocs.getIfAvailable();
        int numAllocations = manager == null ? 0 : manager.list().size();
        return AgentSelfResponse.of(properties, node, request.getLocalAddr(), request.getLocalPort(), version,
                numAllocations);
    }

    /**
     * Health of the requested agent types ({@code ?type=client}, {@code ?type=server}, repeatable; default: the
     * types this agent runs, i.e. client). The client is healthy once its node is fingerprinted and ready. Any
     * unhealthy type answers 500 with the same JSON body, as Nomad.
     */
    @GetMapping("/v1/agent/health")
    ResponseEntity<Map<String, AgentSelfResponse.Health>> health(@RequestParam(name = "type", required = false) List<String> types) {
        List<String> requested = types == null || types.isEmpty() ? List.of("client") : types;
        for (String type : requested) {
            if (!AgentSelfResponse.AGENT_TYPES.contains(type)) {
                throw new ApiException.BadRequest("unknown agent type \"" + type + "\": must be client or server");
            }
        }
        Map<String, AgentSelfResponse.Health> body = new LinkedHashMap<>();
        boolean ok = true;
        if (requested.contains("client")) {
            boolean ready = registry.current().status() == NodeStatus.READY;
            body.put("client", new AgentSelfResponse.Health(ready, ready ? "ok" : "node is initializing"));
            ok = ready;
        }
        if (requested.contains("server")) {
            body.put("server", new AgentSelfResponse.Health(false, "server not enabled"));
            ok = false;
        }
        return ResponseEntity.status(ok ? HttpStatus.OK : HttpStatus.INTERNAL_SERVER_ERROR).body(body);
    }
}
