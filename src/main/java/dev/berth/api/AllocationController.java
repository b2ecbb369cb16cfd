package dev.berth.api;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;

import dev.berth.alloc.AllocExceptions.BadRequestException;
import dev.berth.alloc.AllocExceptions.ConflictException;
import dev.berth.alloc.AllocExceptions.UnknownAllocException;
import dev.berth.alloc.AllocExceptions.UnknownTaskException;
import dev.berth.alloc.AllocManager;
import dev.berth.alloc.admission.AdmissionException;
import dev.berth.alloc.spec.AllocationSpec;
import dev.berth.alloc.spec.SpecValidationException;
import dev.berth.api.AllocationDtos.AllocationDto;
import dev.berth.api.AllocationDtos.IndexResponse;
import dev.berth.api.AllocationDtos.RestartRequest;
import dev.berth.api.AllocationDtos.SignalRequest;
import dev.berth.config.BerthProperties;
import dev.berth.config.NodeIdentity;

/**
 * Allocation submission and lifecycle: Nomad's client alloc endpoints plus our {@code PUT}/{@code DELETE}. Thin: parse, call
 * {@link AllocManager}, map to Nomad's JSON.
 */
@RestController
class AllocationController {

    /** How long a DELETE waits for the tasks to die before answering (the destroy continues in the background). */
    private static final Duration DESTROY_WAIT = Duration.ofSeconds(90);

    private final AllocManager allocs;
    private final String nodeId;
    private final String nodeName;

    AllocationController(AllocManager allocs, NodeIdentity node, BerthProperties props) {
        this.allocs = allocs;
        this.nodeId = node.id();
        this.nodeName = props.name();
    }

    /**
     * Submits or updates an allocation. 200 with the allocation; header {@code X-Berth-Submit} says {@code created},
     * {@code updated} or {@code stale} (a stale or equal {@code AllocModifyIndex} changes nothing).
     */
    @PutMapping("/v1/client/allocation/{id}")
    ResponseEntity<AllocationDto> submit(@PathVariable String id, @RequestBody AllocationSpec body)
            throws SpecValidationException, AdmissionException {
        AllocManager.SubmitResult result = allocs.submit(id, body);
        return ResponseEntity.ok().header("X-Berth-Submit", result.outcome().name().toLowerCase(java.util.Locale.ROOT))
                .body(dto(result.view()));
    }

    @GetMapping("/v1/client/allocations")
    List<AllocationDto> list() {
        return allocs.list().stream().map(this::dto).toList();
    }

    @GetMapping("/v1/allocation/{id}")
    AllocationDto get(@PathVariable String id) throws UnknownAllocException {
        return allocs.get(id).map(this::dto).orElseThrow(() -> new UnknownAllocException(id));
    }

    // Nomad accepts any method; we take only mutating ones so the ACL filter requires write scope for a restart.
    @RequestMapping(path = "/v1/client/allocation/{id}/restart", method = {RequestMethod.POST, RequestMethod.PUT})
    IndexResponse restart(@PathVariable String id, @RequestBody(required = false) RestartRequest body) throws UnknownAllocException,
            UnknownTaskException, BadRequestException, ConflictException, InterruptedException {
        RestartRequest req = body == null ? new RestartRequest(null, false) : body;
        allocs.restart(id, req.taskName(), Boolean.TRUE.equals(req.allTasks()));
        return IndexResponse.ZERO;
    }

    @PostMapping("/v1/client/allocation/{id}/signal")
    IndexResponse signalPost(@PathVariable String id, @RequestBody(required = false) SignalRequest body) throws UnknownAllocException,
            UnknownTaskException, ConflictException, BadRequestException {
        if (body == null) {
            throw new BadRequestException("Failed to decode body: Request body is empty");
        }
        allocs.signal(id, body.task(), body.signal());
        return IndexResponse.ZERO;
    }

    @PutMapping("/v1/client/allocation/{id}/signal")
    IndexResponse signalPut(@PathVariable String id, @RequestBody(required = false) SignalRequest body) throws UnknownAllocException,
            UnknownTaskException, ConflictException, BadRequestException {
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

    private AllocationDto dto(dev.berth.alloc.AllocView view) {
        return AllocationDto.of(view, nodeId, nodeName);
    }
}
