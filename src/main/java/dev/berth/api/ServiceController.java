package dev.berth.api;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.berth.alloc.AllocManager;
import dev.berth.events.BlockingQueries;
import dev.berth.job.JobService;
import dev.berth.service.CheckResult;
import dev.berth.service.ServiceChecks;
import dev.berth.service.ServiceRegistration;
import dev.berth.service.ServiceRegistry;

/**
 * Nomad's native service discovery on this node: {@code GET /v1/services} (per namespace, each service name with its
 * tags), {@code GET /v1/service/{name}} (its {@code ServiceRegistration}s, plus Berth's {@code Health}), both blocking
 * queries on the registry's index; {@code GET /v1/job/{id}/services} (one job's registrations, blocking too);
 * {@code GET /v1/allocation/{id}/services} (one allocation's registrations); and {@code GET /v1/client/allocation/{id}/checks}, the latest result of each check of
 * an allocation by check ID (an empty object when it has none).
 */
@RestController
class ServiceController {

    private final ServiceRegistry registry;
    private final ServiceChecks checks;
    private final AllocManager allocs;
    private final BlockingQueries queries;
    private final JobService jobs;

    ServiceController(ServiceRegistry registry, ServiceChecks checks, AllocManager allocs, BlockingQueries queries, JobService jobs) {
        this.registry = registry;
        this.checks = checks;
        this.allocs = allocs;
        this.queries = queries;
        this.jobs = jobs;
    }

    @GetMapping("/v1/services")
    CompletableFuture<ResponseEntity<List<Map<String, Object>>>> services(@RequestParam(defaultValue = "default") String namespace,
            HttpServletRequest request) {
        return NomadQuery.blocking(queries, request, ServiceRegistry.watch(), () -> registry.stubs(namespace), v -> v);
    }

    @GetMapping("/v1/service/{name}")
    CompletableFuture<ResponseEntity<List<ServiceRegistration>>> service(@PathVariable String name,
            @RequestParam(defaultValue = "default") String namespace, HttpServletRequest request) {
        return NomadQuery.blocking(queries, request, ServiceRegistry.watch(), () -> registry.byName(name, namespace), v -> v);
    }

    /** Nomad's {@code GET /v1/job/{id}/services}: the registrations of the job's allocations (an unknown job: 404). */
    @GetMapping("/v1/job/{id}/services")
    CompletableFuture<ResponseEntity<List<ServiceRegistration>>> jobServices(@PathVariable String id,
            @RequestParam(defaultValue = "default") String namespace, HttpServletRequest request) {
        if (jobs.job(namespace, id).isEmpty()) {
            throw new ApiException.NotFound("job not found");
        }
        return NomadQuery.blocking(queries, request, ServiceRegistry.watch(), () -> registry.byJob(id, namespace), v -> v);
    }

    /** Nomad's {@code GET /v1/allocation/{id}/services}: the allocation's registrations. */
    @GetMapping("/v1/allocation/{id}/services")
    List<ServiceRegistration> allocServices(@PathVariable String id) {
        if (!allocs.exists(id)) {
            throw new ApiException.NotFound("alloc not found");
        }
        return registry.all().stream().filter(r -> r.allocId().equals(id)).toList();
    }

    @GetMapping("/v1/client/allocation/{id}/checks")
    Map<String, CheckResult> checks(@PathVariable String id) {
        if (!allocs.exists(id)) {
            throw new ApiException.NotFound("Unknown allocation \"" + id + "\"");
        }
        return checks.results(id);
    }
}
