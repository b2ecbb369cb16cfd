package dev.berth.api;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
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
import dev.berth.events.Change;
import dev.berth.events.Indexed;
import dev.berth.events.Topic;
import dev.berth.job.JobDefaults;
import dev.berth.job.JobException;
import dev.berth.job.JobService;
import dev.berth.job.PeriodicLauncher;
import dev.berth.job.hcl.JobspecParser;
import dev.berth.namespace.Namespace;

/**
 * Nomad's job API on one node: {@code /v1/jobs}, {@code /v1/job/{id}} and its sub-resources, {@code /v1/evaluation(s)}.
 * GETs are blocking queries ({@code ?index=&wait=}) with the {@code X-Nomad-*} headers, through {@link NomadQuery} as every
 * other blocking endpoint.
 */
@RestController
class JobController {

    private final JobService jobs;
    private final PeriodicLauncher periodic;
    private final BlockingQueries queries;
    private final AllocationJson allocations;
    private final JsonMapper json = JsonMapper.builder().build();
    private final JobspecParser parser = new JobspecParser();

    JobController(JobService jobs, PeriodicLauncher periodic, BlockingQueries queries, AllocationJson allocations) {
        this.jobs = jobs;
        this.periodic = periodic;
        this.queries = queries;
        this.allocations = allocations;
    }

    /**
     * Nomad's {@code /v1/jobs/parse}: HCL2 jobspec → job JSON ({@code Canonicalize}: with Nomad's defaults; {@code Variables}:
     * a variables file's text for the jobspec's {@code variable} blocks). A jobspec Nomad would refuse, or one using what
     * Berth does not run, is a 400 with Nomad's diagnostics ({@code input.hcl:<line>,<col>-<col>: <Summary>; <Detail>}).
     */
    @RequestMapping(path = "/v1/jobs/parse", method = {RequestMethod.PUT, RequestMethod.POST})
    ObjectNode parse(@RequestBody String raw) {
        JsonNode body = body(raw);
        String hcl = body.path("JobHCL").asString("");
        if (hcl.isBlank()) {
            throw new ApiException.BadRequest("Job spec is empty");
        }
        try {
            ObjectNode job = parser.parse(hcl, JobspecParser.API_FILE, body.path("Variables").asString(""));
            return body.path("Canonicalize").asBoolean(false) ? JobDefaults.canonicalize(job) : job;
        } catch (JobspecParser.JobspecException | IllegalArgumentException e) {
            throw new ApiException.BadRequest(e.getMessage());
        }
    }

    @RequestMapping(path = "/v1/jobs", method = {RequestMethod.PUT, RequestMethod.POST})
    ObjectNode register(@RequestBody String raw, HttpServletRequest request) throws JobException {
        JsonNode body = body(raw);
        JsonNode job = inNamespace(body, request);
        Long enforce = body.path("EnforceIndex").asBoolean(false) ? body.path("JobModifyIndex").asLong(0) : null;
        return result(jobs.register(job, enforce));
    }

    @RequestMapping(path = "/v1/job/{id}", method = {RequestMethod.PUT, RequestMethod.POST})
    ObjectNode registerAt(@PathVariable String id, @RequestBody String raw, HttpServletRequest request) throws JobException {
        JsonNode body = body(raw);
        if (body.path("Job").isObject() && !id.equals(body.path("Job").path("ID").asString())) {
            throw new ApiException.BadRequest("Job ID does not match name");
        }
        return register(raw, request);
    }

    /**
     * The request's job (null when it has none) in the namespace Nomad's agent puts it in: the {@code namespace} query
     * parameter, else the request body's {@code Namespace}, else the job's own, else {@code default}.
     */
    static ObjectNode inNamespace(JsonNode body, HttpServletRequest request) {
        if (!(body.path("Job") instanceof ObjectNode given)) {
            return null;
        }
        ObjectNode job = given.deepCopy();
        String query = request.getParameter("namespace");
        String namespace = query != null && !query.isEmpty() ? query
                : !body.path("Namespace").asString("").isEmpty() ? body.path("Namespace").asString()
                : !job.path("Namespace").asString("").isEmpty() ? job.path("Namespace").asString()
                : Namespace.DEFAULT;
        job.put("Namespace", namespace);
        return job;
    }

    @DeleteMapping("/v1/job/{id}")
    ObjectNode deregister(@PathVariable String id, @RequestParam(defaultValue = "default") String namespace,
                          @RequestParam(defaultValue = "false") boolean purge) throws JobException {
        return result(jobs.deregister(namespace, id, purge));
    }

    /** Nomad's {@code /v1/job/{id}/periodic/force}: launches a child of a periodic job now ({@code PeriodicForceResponse}). */
    @RequestMapping(path = "/v1/job/{id}/periodic/force", method = {RequestMethod.PUT, RequestMethod.POST})
    ObjectNode periodicForce(@PathVariable String id, @RequestParam(defaultValue = "default") String namespace) throws JobException {
        JobService.Result r = periodic.force(namespace, id);
        ObjectNode o = json.createObjectNode();
        o.put("EvalID", r.evalId());
        o.put("EvalCreateIndex", r.evalCreateIndex());
        o.put("Index", r.index());
        return o;
    }

    /** Nomad's {@code /v1/job/{id}/dispatch}: {@code Payload} (base64) and {@code Meta} → {@code JobDispatchResponse}. */
    @RequestMapping(path = "/v1/job/{id}/dispatch", method = {RequestMethod.PUT, RequestMethod.POST})
    ObjectNode dispatch(@PathVariable String id, @RequestBody(required = false) String raw,
                        // after the body: with curl's form Content-Type, reading a parameter first would consume the body
                        @RequestParam(defaultValue = "default") String namespace) throws JobException {
        JsonNode body = raw == null || raw.isBlank() ? json.createObjectNode() : body(raw);
        if (body.hasNonNull("JobID") && !id.equals(body.path("JobID").asString())) {
            throw new ApiException.BadRequest("Job ID does not match");
        }
        byte[] payload;
        try {
            payload = body.hasNonNull("Payload") ? java.util.Base64.getDecoder().decode(body.path("Payload").asString()) : new byte[0];
        } catch (IllegalArgumentException e) {
            throw new ApiException.BadRequest("Failed to decode body: Payload is not base64: " + e.getMessage());
        }
        java.util.Map<String, String> meta = new java.util.LinkedHashMap<>();
        body.path("Meta").properties().forEach(e -> meta.put(e.getKey(), e.getValue().asString()));
        JobService.Dispatched d = jobs.dispatch(namespace, id, payload, meta);
        ObjectNode o = json.createObjectNode();
        o.put("DispatchedJobID", d.dispatchedJobId());
        o.put("EvalID", d.evalId());
        o.put("EvalCreateIndex", d.evalCreateIndex());
        o.put("JobCreateIndex", d.jobCreateIndex());
        o.put("Index", d.index());
        return o;
    }

    @GetMapping("/v1/jobs")
    CompletableFuture<ResponseEntity<List<ObjectNode>>> list(@RequestParam(defaultValue = "") String prefix,
                                                             @RequestParam(defaultValue = "default") String namespace,
                                                             HttpServletRequest request) {
        // each stub carries its JobSummary, so the listing moves with the allocations' statuses too (the UI polls it)
        return blocking(request, JobController::jobOrAllocation, () -> jobs.jobs().stream()
                .filter(j -> j.path("ID").asString().startsWith(prefix))
                .filter(j -> "*".equals(namespace) || namespace.equals(j.path("Namespace").asString()))
                .map(j -> new Summarized(stub(j), jobs.summaryIndex(j))).toList(),
                l -> l.stream().mapToLong(Summarized::index).max().orElse(0), l -> l.stream().map(Summarized::stub).toList());
    }

    @GetMapping("/v1/job/{id}")
    CompletableFuture<ResponseEntity<ObjectNode>> get(@PathVariable String id, @RequestParam(defaultValue = "default") String namespace,
                                                      HttpServletRequest request) {
        return blocking(request, Topic.Job, () -> job(namespace, id), j -> j.path("ModifyIndex").asLong());
    }

    /** A job stub with the index its summary answers for. */
    private record Summarized(ObjectNode stub, long index) {
    }

    private static boolean jobOrAllocation(Change c) {
        return c.topic() == Topic.Job || c.topic() == Topic.Allocation;
    }

    @GetMapping("/v1/job/{id}/versions")
    ObjectNode versions(@PathVariable String id, @RequestParam(defaultValue = "default") String namespace) {
        job(namespace, id);
        ObjectNode r = json.createObjectNode();
        ArrayNode v = r.putArray("Versions");
        jobs.versions(namespace, id).forEach(v::add);
        r.putNull("Diffs");
        return r;
    }

    @GetMapping("/v1/job/{id}/summary")
    CompletableFuture<ResponseEntity<ObjectNode>> summary(@PathVariable String id, @RequestParam(defaultValue = "default") String namespace,
                                                          HttpServletRequest request) {
        return blocking(request, JobController::jobOrAllocation, () -> {
            ObjectNode job = job(namespace, id);
            return new Summarized(jobs.summary(job), jobs.summaryIndex(job));
        }, Summarized::index, Summarized::stub);
    }

    /**
     * Nomad's {@code AllocListStub}s of the job's allocations (the indexes, times and {@code EvalID} of
     * {@code /v1/allocation/:id}), {@code JobVersion} being the job version each was placed from or last updated to.
     */
    @GetMapping("/v1/job/{id}/allocations")
    List<Map<String, Object>> allocations(@PathVariable String id, @RequestParam(defaultValue = "default") String namespace) {
        job(namespace, id);
        var versions = jobs.allocationVersions(namespace, id);
        return jobs.allocations(namespace, id).stream().map(v -> {
            Map<String, Object> stub = allocations.stub(v, false, true);
            stub.put("JobVersion", versions.getOrDefault(v.record().id(), 0L));
            return stub;
        }).toList();
    }

    @GetMapping("/v1/job/{id}/evaluations")
    List<ObjectNode> evaluations(@PathVariable String id, @RequestParam(defaultValue = "default") String namespace) {
        job(namespace, id);
        return jobs.evaluations(namespace, id);
    }

    @RequestMapping(path = "/v1/job/{id}/plan", method = {RequestMethod.PUT, RequestMethod.POST})
    ObjectNode plan(@PathVariable String id, @RequestBody String raw, HttpServletRequest request) throws JobException {
        JsonNode body = body(raw);
        JsonNode job = body.path("Job");
        if (job.isObject() && !id.equals(job.path("ID").asString())) {
            throw new ApiException.BadRequest("Job ID does not match");
        }
        return jobs.plan(inNamespace(body, request));
    }

    @GetMapping("/v1/evaluations")
    CompletableFuture<ResponseEntity<List<ObjectNode>>> evaluations(@RequestParam(defaultValue = "") String prefix,
                                                                    @RequestParam(defaultValue = "default") String namespace,
                                                                    HttpServletRequest request) {
        return blocking(request, Topic.Evaluation, () -> jobs.evaluations().stream()
                .filter(e -> e.path("ID").asString().startsWith(prefix))
                .filter(e -> "*".equals(namespace) || namespace.equals(e.path("Namespace").asString())).toList(),
                l -> l.stream().mapToLong(e -> e.path("ModifyIndex").asLong()).max().orElse(0));
    }

    @GetMapping("/v1/evaluation/{id}")
    CompletableFuture<ResponseEntity<ObjectNode>> evaluation(@PathVariable String id, HttpServletRequest request) {
        return blocking(request, Topic.Evaluation, () -> jobs.evaluation(id)
                .orElseThrow(() -> new ApiException(HttpStatus.NOT_FOUND, "eval not found")), e -> e.path("ModifyIndex").asLong());
    }

    /** Nomad's Go client sends JSON without a Content-Type: the body is read as text and parsed here. */
    private JsonNode body(String raw) {
        try {
            JsonNode n = json.readTree(raw == null ? "" : raw);
            if (n == null || !n.isObject()) {
                throw new ApiException.BadRequest("Failed to decode body: expected a JSON object");
            }
            return n;
        } catch (tools.jackson.core.JacksonException e) {
            throw new ApiException.BadRequest("Failed to decode body: " + e.getOriginalMessage());
        }
    }

    private ObjectNode job(String namespace, String id) {
        return jobs.job(namespace, id).orElseThrow(() -> new ApiException(HttpStatus.NOT_FOUND, "job not found"));
    }

    /** Nomad's {@code JobListStub}. */
    private ObjectNode stub(ObjectNode j) {
        ObjectNode s = json.createObjectNode();
        for (String f : List.of("ID", "ParentID", "Name", "Namespace", "Datacenters", "NodePool", "Multiregion", "Type", "Priority",
                "Stop", "Status", "StatusDescription", "CreateIndex", "ModifyIndex", "JobModifyIndex", "SubmitTime", "Meta")) {
            s.set(f, j.hasNonNull(f) ? j.get(f) : json.nullNode());
        }
        s.put("Periodic", j.hasNonNull("Periodic") && j.path("Periodic").path("Enabled").asBoolean(true));
        s.put("ParameterizedJob", j.hasNonNull("ParameterizedJob"));
        s.set("JobSummary", jobs.summary(j));
        return s;
    }

    /** Nomad's {@code JobRegisterResponse} (also the answer of evaluate and scale). */
    static ObjectNode result(JobService.Result r) {
        ObjectNode o = tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        o.put("EvalID", r.evalId());
        o.put("EvalCreateIndex", r.evalCreateIndex());
        o.put("JobModifyIndex", r.jobModifyIndex());
        o.put("Warnings", r.warnings());
        o.put("Index", r.index());
        o.put("LastContact", 0);
        o.put("KnownLeader", true); // one agent is its own leader, as NomadQuery's header says
        return o;
    }

    private <T> CompletableFuture<ResponseEntity<T>> blocking(HttpServletRequest request, Topic topic, Supplier<T> read,
                                                             ToLongFunction<T> indexOf) {
        return blocking(request, c -> c.topic() == topic, read, indexOf, Function.identity());
    }

    /**
     * A blocking read of {@code read} through {@link NomadQuery}, as every blocking endpoint: {@code body} of it answers,
     * with {@code indexOf} of it as {@code X-Nomad-Index}.
     */
    private <R, T> CompletableFuture<ResponseEntity<T>> blocking(HttpServletRequest request, Predicate<Change> watch,
            Supplier<R> read, ToLongFunction<R> indexOf, Function<R, T> body) {
        return NomadQuery.blocking(queries, request, watch, () -> {
            R v = read.get();
            return new Indexed<>(v, indexOf.applyAsLong(v));
        }, body);
    }
}
