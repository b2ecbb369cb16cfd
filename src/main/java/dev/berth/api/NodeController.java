package dev.berth.api;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import dev.berth.fingerprint.Node;
import dev.berth.fingerprint.NodeRegistry;

/** This agent's node: {@code GET /v1/node/self} and {@code GET /v1/node/{id}} (only our own ID exists here). */
@RestController
class NodeController {

    private final NodeRegistry registry;

    NodeController(NodeRegistry registry) {
        this.registry = registry;
    }

    @GetMapping("/v1/node/self")
    NodeResponse self(HttpServletRequest request) {
        return NodeResponse.of(registry.current(), httpAddr(request));
    }

    @GetMapping("/v1/node/{id}")
    NodeResponse node(@PathVariable String id, HttpServletRequest request) {
        Node node = registry.current();
        if (!node.id().equals(id)) {
            // Nomad's text for an unknown node ID.
            throw new ApiException.NotFound("node not found");
        }
        return NodeResponse.of(node, httpAddr(request));
    }

    static String httpAddr(HttpServletRequest request) {
        return request.getLocalAddr() + ":" + request.getLocalPort();
    }
}
