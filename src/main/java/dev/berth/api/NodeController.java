package dev.berth.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.berth.events.BlockingQueries;
import dev.berth.events.Indexed;
import dev.berth.events.Topic;
import dev.berth.fingerprint.Node;
import dev.berth.fingerprint.NodeRegistry;

/**
 * This agent's node: {@code GET /v1/node/self}, {@code GET /v1/node/{id}} (only our own ID exists here) and
 * {@code GET /v1/nodes} (a list of one); blocking queries on the node's modify index, with the {@code X-Nomad-*}
 * headers.
 */
@RestController
class NodeController {

    /** Nomad's text for an unknown node ID. */
    static final String NODE_NOT_FOUND = "node not found";

    private final NodeRegistry registry;
    private final BlockingQueries queries;

    NodeController(NodeRegistry registry, BlockingQueries queries) {
        this.registry = registry;
        this.queries = queries;
    }

    @GetMapping("/v1/node/self")
    CompletableFuture<ResponseEntity<NodeResponse>> self(HttpServletRequest request) {
        return node(registry.current().id(), request);
    }

    @GetMapping("/v1/node/{id}")
    CompletableFuture<ResponseEntity<NodeResponse>> node(@PathVariable String id, HttpServletRequest request) {
        if (!registry.current().id().equals(id)) {
            throw new ApiException.NotFound(NODE_NOT_FOUND);
        }
        String addr = httpAddr(request);
        return NomadQuery.blocking(queries, request, c -> c.topic() == Topic.Node, this::read, n -> NodeResponse.of(n, addr));
    }

    /** Nomad's {@code NodeListStub} of this node; {@code resources=true} adds its resources. */
    @GetMapping("/v1/nodes")
    CompletableFuture<ResponseEntity<List<Map<String, Object>>>> list(@RequestParam(required = false) String prefix,
            @RequestParam(defaultValue = "false") boolean resources, HttpServletRequest request) {
        String addr = httpAddr(request);
        return NomadQuery.blocking(queries, request, c -> c.topic() == Topic.Node, this::read,
                n -> prefix != null && !n.id().startsWith(prefix) ? List.of() : List.of(stub(n, addr, resources)));
    }

    private Indexed<Node> read() {
        Node n = registry.current();
        return new Indexed<>(n, n.modifyIndex());
    }

    static Map<String, Object> stub(Node node, String httpAddr, boolean resources) {
        NodeResponse full = NodeResponse.of(node, httpAddr);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("Address", httpAddr.substring(0, httpAddr.lastIndexOf(':')));
        m.put("ID", full.id());
        m.put("Attributes", null);
        m.put("Datacenter", full.datacenter());
        m.put("Name", full.name());
        m.put("NodeClass", full.nodeClass());
        m.put("NodePool", full.nodePool());
        m.put("Version", node.attributes().getOrDefault("nomad.version", ""));
        m.put("Drain", full.drainStrategy() != null);
        m.put("SchedulingEligibility", full.schedulingEligibility());
        m.put("Status", full.status());
        m.put("StatusDescription", full.statusDescription());
        m.put("Drivers", full.drivers());
        m.put("HostVolumes", full.hostVolumes());
        m.put("NodeResources", resources ? full.nodeResources() : null);
        m.put("ReservedResources", resources ? full.reservedResources() : null);
        m.put("LastDrain", full.lastDrain());
        m.put("CreateIndex", full.createIndex());
        m.put("ModifyIndex", full.modifyIndex());
        return m;
    }

    static String httpAddr(HttpServletRequest request) {
        return request.getLocalAddr() + ":" + request.getLocalPort();
    }
}
