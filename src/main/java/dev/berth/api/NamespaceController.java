package dev.berth.api;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import jakarta.servlet.http.HttpServletRequest;

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
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import dev.berth.events.BlockingQueries;
import dev.berth.events.Indexed;
import dev.berth.namespace.Capabilities;
import dev.berth.namespace.Namespace;
import dev.berth.namespace.NamespaceService;
import dev.berth.namespace.NamespaceUpsert;

/**
 * Nomad's namespace API ({@code command/agent/namespace_endpoint.go}): {@code GET /v1/namespaces} ({@code prefix=}) and
 * {@code GET /v1/namespace/:name}, both blocking queries; {@code PUT|POST /v1/namespace/:name} and
 * {@code /v1/namespace} (the name from the body) create or update; {@code DELETE /v1/namespace/:name}. A write answers
 * an empty body with the write's index in {@code X-Nomad-Index}, as Nomad's does.
 */
@RestController
class NamespaceController {

    /** The fields of Nomad's namespace Berth refuses when they are set (enterprise-only, or not kept here). */
    private static final List<String> REFUSED_FIELDS = List.of("NodePoolConfiguration", "VaultConfiguration",
            "ConsulConfiguration", "RequiredExtraClaims", "OptionalExtraClaims");

    private final NamespaceService namespaces;
    private final BlockingQueries queries;
    private final JsonMapper json = JsonMapper.builder().build();

    NamespaceController(NamespaceService namespaces, BlockingQueries queries) {
        this.namespaces = namespaces;
        this.queries = queries;
    }

    @GetMapping("/v1/namespaces")
    CompletableFuture<ResponseEntity<List<ObjectNode>>> list(@RequestParam(defaultValue = "") String prefix,
                                                             HttpServletRequest request) {
        return NomadQuery.blocking(queries, request, NamespaceService.changes(), () -> namespaces.list(prefix),
                (l) -> l.stream().map(NamespaceController::render).toList());
    }

    @GetMapping("/v1/namespace/{name}")
    CompletableFuture<ResponseEntity<ObjectNode>> get(@PathVariable String name, HttpServletRequest request) {
        return queries.query(NomadQuery.index(request), NomadQuery.waitParam(request), NamespaceService.changes(),
                () -> namespaces.get(name)).thenApply((Indexed<Optional<Namespace>> read) -> {
                    Namespace n = read.value().orElseThrow(() -> {
                        ApiException notFound = new ApiException.NotFound("Namespace not found");
                        notFound.getHeaders().addAll(NomadQuery.headers(read.index()));
                        return notFound;
                    });
                    return NomadQuery.ok(render(n), read.index());
                });
    }

    @RequestMapping(path = "/v1/namespace/{name}", method = {RequestMethod.PUT, RequestMethod.POST})
    ResponseEntity<Void> upsertAt(@PathVariable String name, @RequestBody(required = false) String raw) {
        NamespaceUpsert upsert = parse(raw);
        if (!name.equals(upsert.name())) {
            throw new ApiException.BadRequest("Namespace name does not match request path");
        }
        return written(namespaces.upsert(upsert));
    }

    @RequestMapping(path = "/v1/namespace", method = {RequestMethod.PUT, RequestMethod.POST})
    ResponseEntity<Void> upsert(@RequestBody(required = false) String raw) {
        return written(namespaces.upsert(parse(raw)));
    }

    @DeleteMapping("/v1/namespace/{name}")
    ResponseEntity<Void> delete(@PathVariable String name) {
        return written(namespaces.delete(name));
    }

    private static ResponseEntity<Void> written(long index) {
        return ResponseEntity.ok().header(NomadQuery.INDEX, Long.toString(index)).build();
    }

    /** Nomad's namespace JSON (Go's decoder: field names in any case, unknown fields ignored). */
    private NamespaceUpsert parse(String raw) {
        JsonNode body;
        try {
            body = json.readTree(raw == null || raw.isBlank() ? "{}" : raw);
        } catch (tools.jackson.core.JacksonException e) {
            throw new ApiException.BadRequest("Failed to decode body: " + e.getOriginalMessage());
        }
        if (!body.isObject()) {
            throw new ApiException.BadRequest("Failed to decode body: expected a JSON object");
        }
        Map<String, JsonNode> fields = new LinkedHashMap<>();
        body.properties().forEach((e) -> fields.put(e.getKey().toLowerCase(java.util.Locale.ROOT), e.getValue()));
        Set<String> configured = new LinkedHashSet<>();
        for (String f : REFUSED_FIELDS) {
            JsonNode v = fields.get(f.toLowerCase(java.util.Locale.ROOT));
            // Nomad refuses any configuration object given, even empty; empty claim maps set nothing
            if (v != null && !v.isNull() && !(f.endsWith("ExtraClaims") && v.isEmpty())) {
                configured.add(f);
            }
        }
        return new NamespaceUpsert(text(fields, "name"), text(fields, "description"), text(fields, "quota"), meta(fields.get("meta")),
                capabilities(fields.get("capabilities")), configured);
    }

    private static String text(Map<String, JsonNode> fields, String name) {
        JsonNode v = fields.get(name);
        if (v == null || v.isNull()) {
            return "";
        }
        if (!v.isString()) {
            throw new ApiException.BadRequest("Failed to decode body: " + name + " must be a string");
        }
        return v.asString();
    }

    /** Nomad's {@code Capabilities}: four lists of strings, each absent or null when not given. */
    private static Capabilities capabilities(JsonNode c) {
        if (c == null || c.isNull()) {
            return null;
        }
        if (!c.isObject()) {
            throw new ApiException.BadRequest("Failed to decode body: Capabilities must be an object");
        }
        Map<String, JsonNode> fields = new LinkedHashMap<>();
        c.properties().forEach((e) -> fields.put(e.getKey().toLowerCase(java.util.Locale.ROOT), e.getValue()));
        return new Capabilities(strings(fields, "EnabledTaskDrivers"), strings(fields, "DisabledTaskDrivers"),
                strings(fields, "EnabledNetworkModes"), strings(fields, "DisabledNetworkModes"));
    }

    private static List<String> strings(Map<String, JsonNode> fields, String name) {
        JsonNode v = fields.get(name.toLowerCase(java.util.Locale.ROOT));
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isArray()) {
            throw new ApiException.BadRequest("Failed to decode body: Capabilities." + name + " must be a list of strings");
        }
        List<String> out = new java.util.ArrayList<>();
        for (JsonNode s : v) {
            if (!s.isString()) {
                throw new ApiException.BadRequest("Failed to decode body: Capabilities." + name + " must be a list of strings");
            }
            out.add(s.asString());
        }
        return out;
    }

    private static Map<String, String> meta(JsonNode meta) {
        if (meta == null || meta.isNull()) {
            return null;
        }
        if (!meta.isObject()) {
            throw new ApiException.BadRequest("Failed to decode body: Meta must be an object of strings");
        }
        Map<String, String> out = new LinkedHashMap<>();
        meta.properties().forEach((e) -> {
            if (!e.getValue().isString()) {
                throw new ApiException.BadRequest("Failed to decode body: Meta." + e.getKey() + " must be a string");
            }
            out.put(e.getKey(), e.getValue().asString());
        });
        return out;
    }

    private static void list(ObjectNode o, String field, List<String> values) {
        if (values == null) {
            o.putNull(field);
        } else {
            values.forEach(o.putArray(field)::add);
        }
    }

    /** Nomad's {@code Namespace} JSON; the fields Berth never sets are null. */
    static ObjectNode render(Namespace n) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("Name", n.name());
        o.put("Description", n.description());
        o.put("Quota", "");
        if (n.capabilities() == null) {
            o.putNull("Capabilities");
        } else {
            ObjectNode c = o.putObject("Capabilities");
            list(c, "EnabledTaskDrivers", n.capabilities().enabledTaskDrivers());
            list(c, "DisabledTaskDrivers", n.capabilities().disabledTaskDrivers());
            list(c, "EnabledNetworkModes", n.capabilities().enabledNetworkModes());
            list(c, "DisabledNetworkModes", n.capabilities().disabledNetworkModes());
        }
        o.putNull("NodePoolConfiguration");
        o.putNull("VaultConfiguration");
        o.putNull("ConsulConfiguration");
        if (n.meta() == null) {
            o.putNull("Meta");
        } else {
            ObjectNode meta = o.putObject("Meta");
            n.meta().forEach(meta::put);
        }
        o.putNull("RequiredExtraClaims");
        o.putNull("OptionalExtraClaims");
        o.put("CreateIndex", n.createIndex());
        o.put("ModifyIndex", n.modifyIndex());
        return o;
    }
}
