package dev.berth.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import dev.berth.alloc.gc.AllocGarbageCollector;
import dev.berth.fingerprint.Node;
import dev.berth.fingerprint.NodeRegistry;

/**
 * The cluster endpoints a Nomad client calls first, answered for one agent acting as a region of one: it is its own
 * leader, only peer and only Raft voter, the only member, in region {@code global}, and knows no servers; its volumes are
 * {@code HostVolumeController}'s. {@code PUT /v1/system/gc} collects the node's terminal allocations (the only state it can garbage-collect).
 */
@RestController
class ClusterController {

    static final String REGION = "global";

    private final NodeRegistry registry;
    private final AllocGarbageCollector gc;

    ClusterController(NodeRegistry registry, AllocGarbageCollector gc) {
        this.registry = registry;
        this.gc = gc;
    }

    /** The servers this client talks to: none (Berth runs without servers). */
    @GetMapping("/v1/agent/servers")
    List<String> servers() {
        return List.of();
    }

    @PutMapping("/v1/agent/servers")
    void setServers() {
        throw new ApiException(HttpStatus.NOT_IMPLEMENTED, NO_SERVERS);
    }

    static final String NO_SERVERS = "Berth agents run without servers: there is no server list to set";

    /** Nomad's {@code ServerMembers}: this agent, alive, as the only member of its region. */
    @GetMapping("/v1/agent/members")
    Map<String, Object> members(HttpServletRequest request) {
        Node node = registry.current();
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put("role", "client");
        tags.put("region", REGION);
        tags.put("dc", node.datacenter());
        tags.put("id", node.id());
        tags.put("build", node.attributes().getOrDefault("nomad.version", ""));
        tags.put("port", Integer.toString(request.getLocalPort()));
        Map<String, Object> member = new LinkedHashMap<>();
        member.put("Name", node.name() + "." + REGION);
        member.put("Addr", request.getLocalAddr());
        member.put("Port", request.getLocalPort());
        member.put("Tags", tags);
        member.put("Status", "alive");
        member.put("ProtocolMin", 1);
        member.put("ProtocolMax", 5);
        member.put("ProtocolCur", 2);
        member.put("DelegateMin", 2);
        member.put("DelegateMax", 5);
        member.put("DelegateCur", 4);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("ServerName", node.name());
        out.put("ServerRegion", REGION);
        out.put("ServerDC", node.datacenter());
        out.put("Members", List.of(member));
        return out;
    }

    /** The leader's address: this agent's own (as a JSON string, as Nomad writes it). */
    @GetMapping(path = "/v1/status/leader", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<String> leader(HttpServletRequest request) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body("\"" + NodeController.httpAddr(request) + "\"");
    }

    @GetMapping("/v1/status/peers")
    List<String> peers(HttpServletRequest request) {
        return List.of(NodeController.httpAddr(request));
    }

    /**
     * Nomad's {@code RaftConfiguration}: this agent as the one server, voter and leader, at the address
     * {@code /v1/status/leader} names; {@code Index} 1, the index a bootstrapped single server's configuration has.
     */
    @GetMapping("/v1/operator/raft/configuration")
    Map<String, Object> raftConfiguration(HttpServletRequest request) {
        Node node = registry.current();
        Map<String, Object> server = new LinkedHashMap<>();
        server.put("ID", node.id());
        server.put("Node", node.name() + "." + REGION);
        server.put("Address", NodeController.httpAddr(request));
        server.put("Leader", true);
        server.put("Voter", true);
        server.put("RaftProtocol", "3");
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("Servers", List.of(server));
        out.put("Index", 1);
        return out;
    }

    @GetMapping("/v1/regions")
    List<String> regions() {
        return List.of(REGION);
    }

    /** Nomad's system GC (PUT only; other methods are 405 {@code Invalid method}): collects every terminal allocation. */
    @RequestMapping("/v1/system/gc")
    void systemGc(HttpServletRequest request) throws InterruptedException {
        if (!"PUT".equals(request.getMethod())) {
            throw new ApiException.MethodNotAllowed("Invalid method");
        }
        gc.collectAll();
    }
}
