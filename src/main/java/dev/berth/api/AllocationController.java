package dev.berth.api;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;

import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import dev.berth.alloc.AllocExceptions.InvalidLifecycleRequestException;
import dev.berth.alloc.AllocExceptions.AllocStateException;
import dev.berth.alloc.AllocExceptions.UnknownAllocException;
import dev.berth.alloc.AllocExceptions.UnknownTaskException;
import dev.berth.alloc.AllocManager;
import dev.berth.alloc.admission.AdmissionException;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.SpecValidationException;
import dev.berth.api.AllocationDtos.IndexResponse;
import dev.berth.api.AllocationDtos.RestartRequest;
import dev.berth.api.AllocationDtos.SignalRequest;

/**
 * Allocation submission and lifecycle: Nomad's client alloc endpoints plus our {@code PUT}/{@code DELETE}. Thin: parse, call
 * {@link AllocManager}, map to Nomad's JSON.
 */
@RestController
class AllocationController {

    /** How long a DELETE waits for the tasks to die before answering (the destroy continues in the background). */
    private static final Duration DESTROY_WAIT = Duration.ofSeconds(90);

    private final AllocManager allocs;
    private final JsonMapper json;
    private final AllocationJson render;

    AllocationController(AllocManager allocs, AllocationJson render, JsonMapper json) {
        this.allocs = allocs;
        this.json = json;
        this.render = render;
    }

    /**
     * Submits or updates an allocation. 200 with the allocation; header {@code X-Berth-Submit} says {@code created},
     * {@code updated} or {@code stale} (a stale or equal {@code AllocModifyIndex} changes nothing).
     */
    @PutMapping("/v1/client/allocation/{id}")
    ResponseEntity<Map<String, Object>> submit(@PathVariable String id, @RequestBody byte[] body, HttpServletRequest request)
            throws SpecValidationException, AdmissionException {
        AllocationSpec spec;
        Map<String, Object> document;
        try {
            spec = json.readValue(body, AllocationSpec.class);
            document = json.readValue(body, DOCUMENT);
        } catch (JacksonException e) {
            throw new HttpMessageNotReadableException("Failed to decode body: " + e.getOriginalMessage(), e,
                    new ServletServerHttpRequest(request));
        }
        if (spec == null || document == null) {
            throw new HttpMessageNotReadableException("Required request body is missing", new ServletServerHttpRequest(request));
        }
        AllocManager.SubmitResult result = allocs.submit(id, spec, document);
        return ResponseEntity.ok().headers(NomadQuery.headers(result.view().modifyIndex()))
                .header("X-Berth-Submit", result.outcome().name().toLowerCase(java.util.Locale.ROOT))
                .body(render.full(result.view()));
    }

    private static final TypeReference<Map<String, Object>> DOCUMENT = new TypeReference<>() {
    };

    @GetMapping("/v1/client/allocations")
    List<Map<String, Object>> list() {
        return allocs.list().stream().map(render::full).toList();
    }

    // Nomad accepts any method; we take only mutating ones so the ACL filter requires write scope for a restart.
    @RequestMapping(path = "/v1/client/allocation/{id}/restart", method = {RequestMethod.POST, RequestMethod.PUT})
    IndexResponse restart(@PathVariable String id, @RequestBody(required = false) RestartRequest body) throws UnknownAllocException,
            UnknownTaskException, InvalidLifecycleRequestException, AllocStateException, InterruptedException {
        RestartRequest req = body == null ? new RestartRequest(null, false) : body;
        allocs.restart(id, req.taskName(), Boolean.TRUE.equals(req.allTasks()));
        return IndexResponse.ZERO;
    }

    @PostMapping("/v1/client/allocation/{id}/signal")
    IndexResponse signalPost(@PathVariable String id, @RequestBody(required = false) SignalRequest body) throws UnknownAllocException,
            UnknownTaskException, AllocStateException, InvalidLifecycleRequestException {
        if (body == null) {
            throw new InvalidLifecycleRequestException("Failed to decode body: Request body is empty");
        }
        allocs.signal(id, body.task(), body.signal());
        return IndexResponse.ZERO;
    }

    @PutMapping("/v1/client/allocation/{id}/signal")
    IndexResponse signalPut(@PathVariable String id, @RequestBody(required = false) SignalRequest body) throws UnknownAllocException,
            UnknownTaskException, AllocStateException, InvalidLifecycleRequestException {
        return signalPost(id, body);
    }

    /** Destroys the allocation: kills its tasks, removes its directory and state. Idempotent per existing alloc. */
    @DeleteMapping("/v1/client/allocation/{id}")
    IndexResponse destroy(@PathVariable String id) throws UnknownAllocException, InterruptedException {
        try {
            allocs.destroy(id).get(DESTROY_WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // best effort: the destroy carries on in the background
        }
        return IndexResponse.ZERO;
    }

}
