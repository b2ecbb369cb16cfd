package dev.berth.api;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Nomad endpoints a single node agent cannot sensibly answer: a clear 501 naming why, instead of a bare 404, so a
 * Nomad client shows something a user understands. The full table is {@code docs/nomad-compatibility.md}.
 */
@RestController
class UnsupportedEndpointsController {

    static final String SERVER_ONLY = " is served by Nomad servers; Berth is a single node agent without servers, Raft or ";

    @RequestMapping({"/v1/acl/**", "/v1/operator/**", "/v1/namespaces", "/v1/namespace", "/v1/namespace/**",
            "/v1/deployments", "/v1/deployment/**", "/v1/volumes", "/v1/volumes/**", "/v1/volume/**", "/v1/plugins",
            "/v1/plugin/**", "/v1/search", "/v1/search/**", "/v1/scaling/**", "/v1/vars", "/v1/var/**", "/v1/node/pools",
            "/v1/node/pool/**", "/v1/agent/join", "/v1/agent/force-leave", "/v1/agent/keyring/**", "/v1/agent/schedulers",
            "/v1/agent/schedulers/**", "/v1/system/reconcile/summaries", "/v1/quotas", "/v1/quota/**", "/v1/sentinel/**",
            "/v1/recommendations", "/v1/recommendation/**", "/v1/node/{id}/drain", "/v1/node/{id}/eligibility",
            "/v1/node/{id}/evaluate", "/v1/node/{id}/purge"})
    void unsupported(HttpServletRequest request) {
        String path = request.getRequestURI();
        throw new ApiException(HttpStatus.NOT_IMPLEMENTED, path + SERVER_ONLY + what(path) + " (see docs/nomad-compatibility.md)");
    }

    private static String what(String path) {
        if (path.startsWith("/v1/acl")) {
            return "ACL objects (tokens come from berth.acl)";
        }
        if (path.startsWith("/v1/operator")) {
            return "operator state";
        }
        if (path.startsWith("/v1/node/")) {
            return "a scheduler to drain, evaluate or purge a node for";
        }
        if (path.startsWith("/v1/agent/")) {
            return "a gossip pool, keyring or scheduler workers";
        }
        return "cluster-wide state for this endpoint";
    }
}
