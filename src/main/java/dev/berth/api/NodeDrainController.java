package dev.berth.api;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.job.JobException;
import dev.berth.job.NodeDrain;

/**
 * {@code PUT|POST /v1/node/:id/eligibility} and {@code /v1/node/:id/drain}: Nomad's request and response shapes
 * ({@code NodeUpdateEligibilityRequest}, {@code NodeUpdateDrainRequest}; {@code NodeModifyIndex}, {@code EvalIDs},
 * {@code EvalCreateIndex}, {@code Index}) and error texts.
 */
@RestController
class NodeDrainController {

    private final NodeDrain drain;
    private final JsonMapper json;

    NodeDrainController(NodeDrain drain, JsonMapper json) {
        this.drain = drain;
        this.json = json;
    }

    @RequestMapping(path = "/v1/node/{id}/eligibility", method = {RequestMethod.PUT, RequestMethod.POST})
    ResponseEntity<ObjectNode> eligibility(@PathVariable String id, @RequestBody(required = false) String raw) throws JobException {
        JsonNode body = body(raw);
        String nodeId = body.path("NodeID").asString("");
        return answer(drain.setEligibility(nodeId.isEmpty() ? id : nodeId, body.path("Eligibility").asString("")));
    }

    @RequestMapping(path = "/v1/node/{id}/drain", method = {RequestMethod.PUT, RequestMethod.POST})
    ResponseEntity<ObjectNode> drain(@PathVariable String id, @RequestBody(required = false) String raw) throws JobException {
        JsonNode body = body(raw);
        JsonNode spec = body.path("DrainSpec");
        Map<String, String> meta = null;
        if (body.path("Meta").isObject()) {
            meta = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> e : body.path("Meta").properties()) {
                meta.put(e.getKey(), e.getValue().asString(""));
            }
        }
        if (spec.isObject() && !spec.path("Deadline").isMissingNode() && !spec.path("Deadline").isIntegralNumber()) {
            throw new ApiException.BadRequest("Failed to decode body: DrainSpec.Deadline must be a duration in nanoseconds");
        }
        Duration deadline = spec.isObject() ? Duration.ofNanos(spec.path("Deadline").asLong(0)) : null;
        return answer(drain.setDrain(id, new NodeDrain.DrainRequest(deadline, spec.path("IgnoreSystemJobs").asBoolean(false),
                body.path("MarkEligible").asBoolean(false), meta), ""));
    }

    private ResponseEntity<ObjectNode> answer(NodeDrain.Update u) {
        ObjectNode out = json.createObjectNode();
        out.put("NodeModifyIndex", u.nodeModifyIndex());
        if (u.evalIds() == null) {
            out.putNull("EvalIDs");
        } else {
            u.evalIds().forEach(out.putArray("EvalIDs")::add);
        }
        out.put("EvalCreateIndex", u.evalCreateIndex());
        out.put("Index", u.nodeModifyIndex());
        return NomadQuery.ok(out, u.nodeModifyIndex());
    }

    private JsonNode body(String raw) {
        JsonNode n;
        try {
            n = json.readTree(raw == null || raw.isBlank() ? "{}" : raw);
        } catch (tools.jackson.core.JacksonException e) {
            throw new ApiException.BadRequest("Failed to decode body: " + e.getOriginalMessage());
        }
        if (n == null || !n.isObject()) {
            throw new ApiException.BadRequest("Failed to decode body: expected a JSON object");
        }
        return n;
    }
}
