package dev.berth.api;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;

import tools.jackson.databind.node.ObjectNode;

import dev.berth.config.AclDecision;
import dev.berth.config.AclPolicy;
import dev.berth.config.BerthProperties.TokenScope;
import dev.berth.events.BlockingQueries;
import dev.berth.events.Indexed;
import dev.berth.variables.LockRequest;
import dev.berth.variables.Variable;
import dev.berth.variables.VariableLocks;
import dev.berth.variables.VariableOutcome;
import dev.berth.variables.VariableRules;
import dev.berth.variables.VariableService;

/**
 * Nomad's Variables API ({@code command/agent/variable_endpoint.go}): {@code GET /v1/vars} (a blocking, paged list of
 * metadata), {@code GET /v1/var/:path} (blocking), {@code PUT /v1/var/:path} (with {@code ?cas=}), {@code ?lock-acquire},
 * {@code ?lock-renew}, {@code ?lock-release}, {@code DELETE /v1/var/:path} (with {@code ?cas=}). A conflict answers 409
 * with the current variable as body, as Nomad does, not an error. Locks are shown to callers Nomad would show them to:
 * management (here: a write-scope token, or any caller with ACLs off).
 */
@RestController
class VariableController {

    private static final String PREFIX = "/v1/var/";
    static final String NEXT_TOKEN = "X-Nomad-NextToken";

    private final VariableService variables;
    private final VariableLocks locks;
    private final BlockingQueries queries;
    private final AclPolicy acl;

    VariableController(VariableService variables, VariableLocks locks, BlockingQueries queries, AclPolicy acl) {
        this.variables = variables;
        this.locks = locks;
        this.queries = queries;
        this.acl = acl;
    }

    @GetMapping("/v1/vars")
    CompletableFuture<ResponseEntity<List<ObjectNode>>> list(HttpServletRequest request) {
        String namespace = namespace(request);
        String prefix = Optional.ofNullable(request.getParameter("prefix")).orElse("");
        if (request.getParameter("filter") != null && !request.getParameter("filter").isEmpty()) {
            throw new ApiException.BadRequest("Berth does not evaluate filter expressions on /v1/vars; list with prefix= instead");
        }
        int perPage = perPage(request);
        String nextToken = Optional.ofNullable(request.getParameter("next_token")).orElse("");
        boolean reverse = "true".equals(request.getParameter("reverse"));
        boolean management = management(request);
        return queries.query(NomadQuery.index(request), NomadQuery.waitParam(request), VariableService.watch(namespace, null),
                () -> variables.list(namespace, prefix, nextToken, perPage, reverse)).thenApply(page -> {
                    HttpHeaders headers = NomadQuery.headers(page.index());
                    if (!page.value().nextToken().isEmpty()) {
                        headers.set(NEXT_TOKEN, page.value().nextToken());
                    }
                    return ResponseEntity.ok().headers(headers)
                            .body(page.value().variables().stream().map(m -> VariableJson.meta(m, management)).toList());
                });
    }

    @GetMapping(PREFIX + "**")
    CompletableFuture<ResponseEntity<ObjectNode>> read(HttpServletRequest request) {
        String path = path(request);
        String namespace = namespace(request);
        boolean management = management(request);
        return queries.query(NomadQuery.index(request), NomadQuery.waitParam(request), VariableService.watch(namespace, path),
                () -> variables.read(namespace, path)).thenApply((Indexed<Optional<Variable>> read) -> {
                    Variable v = read.value().orElseThrow(() -> {
                        ApiException notFound = new ApiException.NotFound("variable not found");
                        notFound.getHeaders().addAll(NomadQuery.headers(read.index()));
                        return notFound;
                    });
                    return NomadQuery.ok(VariableJson.variable(v, management), read.index());
                });
    }

    @RequestMapping(path = PREFIX + "**", method = {RequestMethod.PUT, RequestMethod.POST})
    ResponseEntity<ObjectNode> write(@RequestBody(required = false) String raw, HttpServletRequest request) {
        String path = path(request);
        // after the body: with a form Content-Type, reading a parameter first would consume the body
        String operation = lockOperation(request);
        String cas = request.getParameter("cas");
        if (cas != null && !cas.isEmpty() && operation != null) {
            throw new ApiException.BadRequest("CAS can't be used with lock operations");
        }
        VariableJson.Body body = VariableJson.body(raw);
        String namespace = body.namespace() != null ? body.namespace() : namespace(request);
        if (operation == null) {
            if (body.items().isEmpty()) {
                throw new ApiException.BadRequest("variable missing required Items object");
            }
            return answer(variables.put(namespace, path, body.items(), body.lock(), cas(request)));
        }
        return switch (operation) {
            case "lock-acquire" -> answer(locks.acquire(namespace, path, body.items(), body.lock()));
            case "lock-release" -> answer(locks.release(namespace, path, body.lock().id(), body.itemsGiven()));
            default -> ResponseEntity.ok(VariableJson.meta(locks.renew(namespace(request), path, body.lock().id()), true));
        };
    }

    @DeleteMapping(PREFIX + "**")
    ResponseEntity<ObjectNode> delete(HttpServletRequest request) {
        return answer(variables.delete(namespace(request), path(request), cas(request)));
    }

    /** A write's answer: 200 with the variable, 204 for a delete, 409 with the current variable for a conflict. */
    private static ResponseEntity<ObjectNode> answer(VariableOutcome outcome) {
        HttpHeaders headers = NomadQuery.headers(outcome.index());
        return switch (outcome) {
            case VariableOutcome.Written w -> ResponseEntity.ok().headers(headers).body(VariableJson.variable(w.variable(), true));
            case VariableOutcome.Deleted d -> ResponseEntity.noContent().headers(headers).build();
            case VariableOutcome.Conflict c -> ResponseEntity.status(HttpStatus.CONFLICT).headers(headers)
                    .body(VariableJson.variable(c.current(), true));
        };
    }

    private static String path(HttpServletRequest request) {
        String full = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        String path = full.startsWith(PREFIX) ? full.substring(PREFIX.length()) : "";
        if (path.isEmpty()) {
            throw new ApiException.BadRequest("missing variable path");
        }
        return path;
    }

    private static String namespace(HttpServletRequest request) {
        String ns = request.getParameter("namespace");
        return ns == null || ns.isEmpty() ? VariableRules.DEFAULT_NAMESPACE : ns;
    }

    private static OptionalLong cas(HttpServletRequest request) {
        String cas = request.getParameter("cas");
        if (cas == null || cas.isEmpty()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseUnsignedLong(cas));
        } catch (NumberFormatException e) {
            throw new ApiException.BadRequest("can not parse cas: strconv.ParseUint: parsing \"" + cas + "\": invalid syntax");
        }
    }

    private static int perPage(HttpServletRequest request) {
        String raw = request.getParameter("per_page");
        if (raw == null || raw.isEmpty()) {
            return 0;
        }
        try {
            int perPage = Integer.parseInt(raw);
            if (perPage >= 0) {
                return perPage;
            }
        } catch (NumberFormatException e) {
            // Nomad's answer names no reason either
        }
        throw new ApiException.BadRequest("Expect a number for `per_page` query string parameter");
    }

    /** The one lock operation asked for ({@code ?lock-acquire} etc., no value needed), or null. */
    private static String lockOperation(HttpServletRequest request) {
        List<String> asked = List.of("lock-acquire", "lock-renew", "lock-release").stream()
                .filter(request.getParameterMap()::containsKey).toList();
        if (asked.size() > 1) {
            throw new ApiException.BadRequest("multiple lock operations");
        }
        return asked.isEmpty() ? null : asked.getFirst();
    }

    /** Whether the caller is what Nomad calls management: any caller with ACLs off, else a write-scope token. */
    private boolean management(HttpServletRequest request) {
        return acl.authorize(AclFilter.presentedSecret(request), TokenScope.WRITE) instanceof AclDecision.Allowed;
    }
}
