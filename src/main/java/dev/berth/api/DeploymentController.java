package dev.berth.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.events.BlockingQueries;
import dev.berth.events.Indexed;
import dev.berth.events.Topic;
import dev.berth.job.Deployment;
import dev.berth.job.DeploymentActions;
import dev.berth.job.Deployments;
import dev.berth.job.JobException;
import dev.berth.job.JobService;

/**
 * Nomad's deployment endpoints: {@code /v1/deployments}, {@code /v1/deployment/:id}, its allocations (blocking queries
 * on the {@code Deployment} and {@code Allocation} topics), and the actions promote, pause, fail and allocation-health
 * ({@code DeploymentUpdateResponse}).
 */
@RestController
class DeploymentController {

    private final Deployments deployments;
    private final DeploymentActions actions;
    private final JobService jobs;
    private final AllocationJson allocations;
    private final BlockingQueries queries;
    private final JsonMapper json = JsonMapper.builder().build();

    DeploymentController(Deployments deployments, DeploymentActions actions, JobService jobs, AllocationJson allocations,
                         BlockingQueries queries) {
        this.deployments = deployments;
        this.actions = actions;
        this.jobs = jobs;
        this.allocations = allocations;
        this.queries = queries;
    }

    @GetMapping("/v1/deployments")
    CompletableFuture<ResponseEntity<List<Deployment>>> list(@RequestParam(defaultValue = "") String prefix,
            @RequestParam(defaultValue = "default") String namespace, HttpServletRequest request) {
        Supplier<Indexed<List<Deployment>>> read = () -> {
            List<Deployment> out = deployments.all().stream().filter(d -> d.id().startsWith(prefix)
                    && ("*".equals(namespace) || d.namespace().equals(namespace))).toList();
            return new Indexed<>(out, out.stream().mapToLong(Deployment::modifyIndex).max().orElse(1));
        };
        return NomadQuery.blocking(queries, request, c -> c.topic() == Topic.Deployment, read, v -> v);
    }

    @GetMapping("/v1/deployment/{id}")
    CompletableFuture<ResponseEntity<Deployment>> get(@PathVariable String id, HttpServletRequest request) {
        Supplier<Indexed<Deployment>> read = () -> deployments.get(id).map(d -> new Indexed<>(d, d.modifyIndex()))
                .orElseThrow(() -> new ApiException.NotFound("deployment not found"));
        read.get();
        return NomadQuery.blocking(queries, request, c -> c.topic() == Topic.Deployment, read, v -> v);
    }

    /** The deployment's allocations as {@code AllocListStub}s, with their {@code DeploymentStatus}. */
    @GetMapping("/v1/deployment/allocations/{id}")
    CompletableFuture<ResponseEntity<List<Map<String, Object>>>> allocations(@PathVariable String id, HttpServletRequest request) {
        Supplier<Indexed<List<Map<String, Object>>>> read = () -> {
            Deployment d = deployments.get(id).orElseThrow(() -> new ApiException.NotFound("deployment not found"));
            List<Map<String, Object>> out = new ArrayList<>();
            long index = d.modifyIndex();
            for (var v : jobs.deploymentAllocations(id)) {
                out.add(allocations.stub(v, false, true));
                index = Math.max(index, v.modifyIndex());
            }
            return new Indexed<>(out, index);
        };
        read.get();
        return NomadQuery.blocking(queries, request, c -> c.topic() == Topic.Deployment || c.topic() == Topic.Allocation, read,
                v -> v);
    }

    @RequestMapping(path = "/v1/deployment/promote/{id}", method = {RequestMethod.PUT, RequestMethod.POST})
    ResponseEntity<ObjectNode> promote(@PathVariable String id, @RequestBody(required = false) String raw) throws JobException {
        JsonNode body = body(raw, id);
        List<String> groups = new ArrayList<>();
        body.path("Groups").forEach(g -> groups.add(g.asString()));
        return answer(actions.promote(id, body.path("All").asBoolean(false), groups));
    }

    @RequestMapping(path = "/v1/deployment/pause/{id}", method = {RequestMethod.PUT, RequestMethod.POST})
    ResponseEntity<ObjectNode> pause(@PathVariable String id, @RequestBody(required = false) String raw) throws JobException {
        return answer(actions.pause(id, body(raw, id).path("Pause").asBoolean(false)));
    }

    @RequestMapping(path = "/v1/deployment/fail/{id}", method = {RequestMethod.PUT, RequestMethod.POST})
    ResponseEntity<ObjectNode> fail(@PathVariable String id) throws JobException {
        return answer(actions.fail(id));
    }

    @RequestMapping(path = "/v1/deployment/allocation-health/{id}", method = {RequestMethod.PUT, RequestMethod.POST})
    ResponseEntity<ObjectNode> health(@PathVariable String id, @RequestBody(required = false) String raw) throws JobException {
        JsonNode body = body(raw, id);
        List<String> healthy = new ArrayList<>();
        List<String> unhealthy = new ArrayList<>();
        body.path("HealthyAllocationIDs").forEach(a -> healthy.add(a.asString()));
        body.path("UnhealthyAllocationIDs").forEach(a -> unhealthy.add(a.asString()));
        return answer(actions.setHealth(id, healthy, unhealthy));
    }

    private ResponseEntity<ObjectNode> answer(DeploymentActions.Update u) {
        ObjectNode out = json.createObjectNode();
        out.put("EvalID", u.evalId());
        out.put("EvalCreateIndex", u.evalCreateIndex());
        out.put("DeploymentModifyIndex", u.deploymentModifyIndex());
        if (u.revertedJobVersion() != null) {
            out.put("RevertedJobVersion", u.revertedJobVersion());
        } else {
            out.putNull("RevertedJobVersion");
        }
        out.put("Index", u.index());
        return NomadQuery.ok(out, u.index());
    }

    /** The request body; a {@code DeploymentID} in it must name the deployment of the path (Nomad's check). */
    private JsonNode body(String raw, String id) {
        JsonNode n;
        try {
            n = json.readTree(raw == null || raw.isBlank() ? "{}" : raw);
        } catch (tools.jackson.core.JacksonException e) {
            throw new ApiException.BadRequest("Failed to decode body: " + e.getOriginalMessage());
        }
        if (n == null || !n.isObject()) {
            throw new ApiException.BadRequest("Failed to decode body: expected a JSON object");
        }
        String named = n.path("DeploymentID").asString("");
        if (!named.isEmpty() && !named.equals(id)) {
            throw new ApiException.BadRequest("Deployment ID does not match");
        }
        return n;
    }
}
