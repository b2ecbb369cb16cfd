package dev.berth.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
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
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.events.BlockingQueries;
import dev.berth.events.Indexed;
import dev.berth.events.Topic;
import dev.berth.job.Deployment;
import dev.berth.job.Deployments;
import dev.berth.job.JobException;
import dev.berth.job.JobScaling;
import dev.berth.job.JobService;

/**
 * The rest of Nomad's {@code /v1/job/:id/<action>} endpoints (register, read, versions, summary, allocations,
 * evaluations, plan, dispatch and periodic force are {@link JobController}'s; services are {@link ServiceController}'s):
 * scale status and scaling, evaluate, deployments, stable, submission (none kept), actions; revert and running an
 * action are a 501 naming what is missing.
 */
@RestController
class JobSubresourceController {

    private final JobService jobs;
    private final JobScaling scaling;
    private final Deployments deployments;
    private final BlockingQueries queries;
    private final JsonMapper json = JsonMapper.builder().build();

    JobSubresourceController(JobService jobs, JobScaling scaling, Deployments deployments, BlockingQueries queries) {
        this.jobs = jobs;
        this.deployments = deployments;
        this.scaling = scaling;
        this.queries = queries;
    }

    /** Nomad's {@code JobScaleStatus}: per group Desired, Placed, Running (Healthy/Unhealthy left 0), Events. */
    @GetMapping("/v1/job/{id}/scale")
    CompletableFuture<ResponseEntity<ObjectNode>> scaleStatus(@PathVariable String id,
            @RequestParam(defaultValue = "default") String namespace, HttpServletRequest request) {
        Supplier<Indexed<ObjectNode>> read = () -> scaling.status(namespace, id)
                .map(s -> new Indexed<>(s.body(), Math.max(1, s.index())))
                .orElseThrow(() -> new ApiException.NotFound("job not found"));
        read.get(); // an unknown job is a 404 before any wait
        return NomadQuery.blocking(queries, request, c -> c.topic() == Topic.Job || c.topic() == Topic.Allocation, read, v -> v);
    }

    /** Nomad's {@code ScalingRequest} ({@code Count}, {@code Target.Group}, …) → {@code JobRegisterResponse}. */
    @RequestMapping(path = "/v1/job/{id}/scale", method = {RequestMethod.PUT, RequestMethod.POST})
    ResponseEntity<ObjectNode> scale(@PathVariable String id, @RequestBody(required = false) String raw,
                                     @RequestParam(defaultValue = "default") String namespace) throws JobException {
        JsonNode body = body(raw);
        Map<String, String> target = new LinkedHashMap<>();
        body.path("Target").properties().forEach(e -> target.put(e.getKey(), e.getValue().asString()));
        JsonNode count = body.path("Count");
        if (!count.isMissingNode() && !count.isNull() && !count.isIntegralNumber()) {
            throw new ApiException.BadRequest("Failed to decode body: Count must be an integer");
        }
        JobService.Result r = scaling.scale(namespace, id, new JobScaling.Request(count.isIntegralNumber() ? count.asLong() : null,
                target, body.path("Message").asString(""), body.path("Error").asBoolean(false), body.path("Meta"),
                body.path("JobModifyIndex").asLong(0)));
        return NomadQuery.ok(JobController.result(r), r.index());
    }

    /** Nomad's {@code /v1/job/:id/evaluate}: a new evaluation of the job ({@code JobRegisterResponse}). */
    @RequestMapping(path = "/v1/job/{id}/evaluate", method = {RequestMethod.PUT, RequestMethod.POST})
    ResponseEntity<ObjectNode> evaluate(@PathVariable String id, @RequestBody(required = false) String raw,
                                        @RequestParam(defaultValue = "default") String namespace) throws JobException {
        if (raw != null && !raw.isBlank()) {
            JsonNode body = body(raw);
            if (body.path("JobID").asString("").isEmpty()) {
                throw new ApiException.BadRequest("Job ID must be specified");
            }
            if (!id.equals(body.path("JobID").asString())) {
                throw new ApiException.BadRequest("JobID not same as job name");
            }
        }
        JobService.Result r = jobs.evaluate(namespace, id);
        return NomadQuery.ok(JobController.result(r), r.index());
    }

    /**
     * The job's deployments, newest first (blocking query): those of the job as registered now, or with {@code all=true}
     * also those of an earlier job of the same ID (Nomad tells them apart by the job's create index).
     */
    @GetMapping("/v1/job/{id}/deployments")
    CompletableFuture<ResponseEntity<List<Deployment>>> deployments(@PathVariable String id,
            @RequestParam(defaultValue = "default") String namespace, @RequestParam(defaultValue = "false") boolean all,
            HttpServletRequest request) {
        Supplier<Indexed<List<Deployment>>> read = () -> {
            long created = jobs.job(namespace, id).map(j -> j.path("CreateIndex").asLong()).orElse(-1L);
            List<Deployment> out = deployments.ofJob(namespace, id).stream()
                    .filter(d -> all || d.jobCreateIndex() == created).toList();
            return new Indexed<>(out, out.stream().mapToLong(Deployment::modifyIndex).max().orElse(1));
        };
        return NomadQuery.blocking(queries, request, c -> c.topic() == Topic.Deployment, read, v -> v);
    }

    /** The job's latest deployment, or {@code null} for a job without one (blocking query). */
    @GetMapping(path = "/v1/job/{id}/deployment", produces = MediaType.APPLICATION_JSON_VALUE)
    CompletableFuture<ResponseEntity<String>> deployment(@PathVariable String id,
            @RequestParam(defaultValue = "default") String namespace, HttpServletRequest request) {
        Supplier<Indexed<String>> read = () -> {
            long created = jobs.job(namespace, id).map(j -> j.path("CreateIndex").asLong()).orElse(-1L);
            return deployments.ofJob(namespace, id).stream().filter(d -> d.jobCreateIndex() == created).findFirst()
                    .map(d -> new Indexed<>(json.writeValueAsString(d), d.modifyIndex())).orElse(new Indexed<>("null", 1));
        };
        return NomadQuery.blocking(queries, request, c -> c.topic() == Topic.Deployment, read, v -> v);
    }

    /** Nomad's {@code JobStabilityRequest} ({@code JobID}, {@code JobVersion}, {@code Stable}) → {@code JobModifyIndex}, {@code Index}. */
    @RequestMapping(path = "/v1/job/{id}/stable", method = {RequestMethod.PUT, RequestMethod.POST})
    ResponseEntity<ObjectNode> stable(@PathVariable String id, @RequestBody(required = false) String raw,
                                      @RequestParam(defaultValue = "default") String namespace) {
        JsonNode body = body(raw);
        if (body.path("JobID").asString("").isEmpty()) {
            throw new ApiException.BadRequest("JobID must be specified");
        }
        if (!id.equals(body.path("JobID").asString())) {
            throw new ApiException.BadRequest("Job ID does not match");
        }
        long version = body.path("JobVersion").asLong(0);
        long index = jobs.registry().setStable(namespace, id, version, body.path("Stable").asBoolean(false));
        if (index == 0) {
            throw new ApiException.NotFound("job \"" + id + "\" at version " + version + " not found");
        }
        ObjectNode out = json.createObjectNode().put("JobModifyIndex", index).put("Index", index);
        return NomadQuery.ok(out, index);
    }

    /** The jobspec source a job was submitted with: Berth keeps none, which Nomad answers with this 404. */
    @GetMapping("/v1/job/{id}/submission")
    Object submission(@PathVariable String id, @RequestParam(required = false) String version) {
        try {
            Long.parseUnsignedLong(version == null ? "" : version);
        } catch (NumberFormatException e) {
            throw new ApiException.BadRequest("Unable to parse job submission version parameter");
        }
        throw new ApiException.NotFound("job source not found");
    }

    /** Nomad's {@code JobAction}s of the job's tasks: Name, Args, Command, TaskName, TaskGroupName. */
    @GetMapping("/v1/job/{id}/actions")
    ArrayNode actions(@PathVariable String id, @RequestParam(defaultValue = "default") String namespace) {
        ObjectNode job = jobs.job(namespace, id).orElseThrow(() -> new ApiException.NotFound("job not found"));
        ArrayNode out = json.createArrayNode();
        for (JsonNode g : job.path("TaskGroups")) {
            for (JsonNode t : g.path("Tasks")) {
                for (JsonNode a : t.path("Actions")) {
                    out.addObject().put("Name", a.path("Name").asString()).put("Command", a.path("Command").asString())
                            .put("TaskName", t.path("Name").asString()).put("TaskGroupName", g.path("Name").asString())
                            .set("Args", a.path("Args").isArray() ? a.path("Args") : json.nullNode());
                }
            }
        }
        return out;
    }

    @RequestMapping({"/v1/job/{id}/revert", "/v1/job/{id}/action"})
    void notImplemented(HttpServletRequest request) {
        String path = request.getRequestURI();
        String what = path.endsWith("/revert") ? "reverting a job to an earlier version is not implemented by Berth's local scheduler"
                : "running a job action is not implemented (run its command with /v1/client/allocation/:id/exec)";
        throw new ApiException(HttpStatus.NOT_IMPLEMENTED, path + ": " + what + " (see docs/nomad-compatibility.md)");
    }

    private JsonNode body(String raw) {
        try {
            JsonNode n = json.readTree(raw == null || raw.isBlank() ? "{}" : raw);
            if (n == null || !n.isObject()) {
                throw new ApiException.BadRequest("Failed to decode body: expected a JSON object");
            }
            return n;
        } catch (tools.jackson.core.JacksonException e) {
            throw new ApiException.BadRequest("Failed to decode body: " + e.getOriginalMessage());
        }
    }
}
