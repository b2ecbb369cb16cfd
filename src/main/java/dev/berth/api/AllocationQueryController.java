package dev.berth.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.berth.alloc.admission.AdmissionException;
import dev.berth.alloc.AllocExceptions.UnknownAllocException;
import dev.berth.alloc.AllocManager;
import dev.berth.alloc.AllocView;
import dev.berth.alloc.spec.SpecValidationException;
import dev.berth.events.BlockingQueries;
import dev.berth.events.Indexed;
import dev.berth.events.Topic;
import dev.berth.fingerprint.NodeRegistry;

/**
 * Nomad's allocation reads for one agent acting as a region of one: {@code GET /v1/allocation/:id},
 * {@code GET /v1/allocations}, {@code GET /v1/node/:id/allocations} — each a blocking query with the
 * {@code X-Nomad-*} headers, served from memory — and {@code PUT|POST /v1/allocation/:id/stop}.
 */
@RestController
class AllocationQueryController {

    /** Nomad's text for an unknown allocation on its server endpoints. */
    static final String ALLOC_NOT_FOUND = "alloc not found";

    private final AllocManager allocs;
    private final AllocationJson render;
    private final BlockingQueries queries;
    private final NodeRegistry registry;

    AllocationQueryController(AllocManager allocs, AllocationJson render, BlockingQueries queries, NodeRegistry registry) {
        this.allocs = allocs;
        this.render = render;
        this.queries = queries;
        this.registry = registry;
    }

    @GetMapping("/v1/allocation/{id}")
    CompletableFuture<ResponseEntity<Map<String, Object>>> get(@PathVariable String id, HttpServletRequest request) {
        return NomadQuery.blocking(queries, request, c -> c.matches(Topic.Allocation, id), () -> {
            Optional<AllocView> view = allocs.get(id);
            return new Indexed<>(view, view.map(AllocView::modifyIndex).orElse(tableIndex()));
        }, view -> render.full(view.orElseThrow(() -> new ApiException.NotFound(ALLOC_NOT_FOUND))));
    }

    /**
     * {@code prefix} on the ID; {@code namespace} ({@code default} unless given, {@code *}: every one);
     * {@code resources=true} adds AllocatedResources; {@code task_states=false} drops them.
     */
    @GetMapping("/v1/allocations")
    CompletableFuture<ResponseEntity<List<Map<String, Object>>>> list(@RequestParam(required = false) String prefix,
            @RequestParam(defaultValue = "default") String namespace, @RequestParam(defaultValue = "false") boolean resources,
            @RequestParam(name = "task_states", defaultValue = "true") boolean taskStates, HttpServletRequest request) {
        return NomadQuery.blocking(queries, request, c -> c.topic() == Topic.Allocation,
                () -> new Indexed<>(allocs.list(), tableIndex()),
                views -> views.stream().filter(v -> prefix == null || v.record().id().startsWith(prefix))
                        .filter(v -> "*".equals(namespace) || namespace.equals(namespaceOf(v)))
                        .map(v -> render.stub(v, resources, taskStates)).toList());
    }

    private static String namespaceOf(AllocView v) {
        String ns = v.record().spec().namespace();
        return ns == null || ns.isEmpty() ? "default" : ns;
    }

    /** Every allocation of the node, whole; only this agent's node ID exists. */
    @GetMapping("/v1/node/{id}/allocations")
    CompletableFuture<ResponseEntity<List<Map<String, Object>>>> nodeAllocations(@PathVariable String id,
            HttpServletRequest request) {
        if (!registry.current().id().equals(id)) {
            // Nomad answers an unknown node's allocations with an empty list
            return CompletableFuture.completedFuture(NomadQuery.ok(List.of(), tableIndex()));
        }
        return NomadQuery.blocking(queries, request, c -> c.topic() == Topic.Allocation,
                () -> new Indexed<>(allocs.list(), tableIndex()), views -> views.stream().map(render::full).toList());
    }

    /**
     * Stops the allocation as an update with {@code DesiredStatus: stop} would. Nomad answers with the evaluation it
     * created; a node has no scheduler, so the {@code EvalID} is a fresh ID that names this stop (not a queryable
     * evaluation), and {@code Index} the node index the stop was applied at.
     */
    @RequestMapping(path = "/v1/allocation/{id}/stop", method = {RequestMethod.PUT, RequestMethod.POST})
    ResponseEntity<Map<String, Object>> stop(@PathVariable String id)
            throws SpecValidationException, AdmissionException {
        AllocView after;
        try {
            after = allocs.stop(id);
        } catch (UnknownAllocException e) {
            throw new ApiException.NotFound(ALLOC_NOT_FOUND);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("EvalID", java.util.UUID.randomUUID().toString());
        body.put("Index", after.document().allocModifyIndex());
        return NomadQuery.ok(body, after.document().allocModifyIndex());
    }

    private long tableIndex() {
        long table = allocs.changes().tableIndex();
        return table > 0 ? table : allocs.changes().feed().currentIndex();
    }
}
