package dev.berth.api;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;

import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.events.BlockingQueries;
import dev.berth.events.ChangeFeed;
import dev.berth.events.Indexed;
import dev.berth.events.Topic;
import dev.berth.volume.DynamicHostVolume;
import dev.berth.volume.DynamicHostVolumes;

/**
 * Nomad 1.10's dynamic host volumes API ({@code command/agent/host_volume_endpoint.go}): {@code PUT|POST
 * /v1/volume/host/create} and {@code /register}, {@code GET /v1/volumes?type=host} (blocking; {@code prefix},
 * {@code node_id}, {@code node_pool}, {@code plugin_id}), {@code GET} and {@code DELETE /v1/volume/host/:id}. CSI
 * volumes: none ({@code type=csi} and no {@code type} list nothing); another type is Nomad's 404.
 */
@RestController
class HostVolumeController {

    private static final String NOT_FOUND = "Resource not found";

    private final DynamicHostVolumes volumes;
    private final BlockingQueries queries;
    private final ChangeFeed feed;

    HostVolumeController(DynamicHostVolumes volumes, BlockingQueries queries, ChangeFeed feed) {
        this.volumes = volumes;
        this.queries = queries;
        this.feed = feed;
    }

    @GetMapping("/v1/volumes")
    CompletableFuture<ResponseEntity<List<ObjectNode>>> list(HttpServletRequest request) {
        String type = request.getParameter("type");
        if (type == null || "csi".equals(type)) {
            return CompletableFuture.completedFuture(NomadQuery.ok(List.of(), feed.currentIndex()));
        }
        if (!"host".equals(type)) {
            throw new ApiException.NotFound(NOT_FOUND);
        }
        String namespace = namespace(request);
        return NomadQuery.blocking(queries, request, c -> c.topic() == Topic.HostVolume,
                () -> new Indexed<>(volumes.list(namespace, param(request, "prefix"), param(request, "node_id"),
                        param(request, "node_pool"), param(request, "plugin_id")), feed.currentIndex()),
                list -> list.stream().map(HostVolumeJson::stub).toList());
    }

    @RequestMapping(path = "/v1/volume/host/{id}", method = {RequestMethod.PUT, RequestMethod.POST})
    ResponseEntity<ObjectNode> write(@PathVariable("id") String op, @RequestBody(required = false) String raw, HttpServletRequest request) {
        DynamicHostVolume written = switch (op) {
            case "create" -> volumes.create(HostVolumeJson.request(raw, namespace(request)));
            case "register" -> volumes.register(HostVolumeJson.request(raw, namespace(request)));
            default -> throw new ApiException.NotFound(NOT_FOUND);
        };
        return NomadQuery.ok(HostVolumeJson.written(written), written.modifyIndex());
    }

    @GetMapping("/v1/volume/host/{id}")
    CompletableFuture<ResponseEntity<ObjectNode>> read(@PathVariable String id, HttpServletRequest request) {
        String namespace = namespace(request);
        return NomadQuery.blocking(queries, request, c -> c.topic() == Topic.HostVolume && id.equals(c.key()),
                () -> new Indexed<>(volumes.get(namespace, id), feed.currentIndex()),
                (Optional<DynamicHostVolume> v) -> HostVolumeJson.volume(
                        v.orElseThrow(() -> new ApiException.NotFound("volume not found")), volumes.claimsOf(v.get())));
    }

    @DeleteMapping("/v1/volume/host/{id}")
    ResponseEntity<ObjectNode> delete(@PathVariable String id, HttpServletRequest request) {
        String force = request.getParameter("force");
        if (force != null && !force.isEmpty() && !force.matches("1|0|[tT]|[fF]|true|false|TRUE|FALSE|True|False")) {
            throw new ApiException.BadRequest("invalid force value");
        }
        long index = volumes.delete(namespace(request), id);
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("Index", index);
        return NomadQuery.ok(body, index);
    }

    private static String namespace(HttpServletRequest request) {
        String ns = request.getParameter("namespace");
        return ns == null || ns.isEmpty() ? "default" : ns;
    }

    private static String param(HttpServletRequest request, String name) {
        return Optional.ofNullable(request.getParameter(name)).orElse("");
    }
}
