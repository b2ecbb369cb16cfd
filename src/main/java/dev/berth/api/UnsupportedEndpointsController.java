package dev.berth.api;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Nomad endpoints one Berth agent does not answer: a clear 501 saying what it lacks for them, instead of a bare 404, so
 * a Nomad client shows something a user understands. The full table is {@code docs/nomad-compatibility.md}.
 */
@RestController
class UnsupportedEndpointsController {

    @RequestMapping({"/v1/acl/**", "/v1/operator/**",
            "/v1/deployment/unblock/**", "/v1/volumes/**", "/v1/volume/**", "/v1/plugins",
            "/v1/plugin/**", "/v1/search", "/v1/search/**", "/v1/scaling/**", "/v1/node/pools",
            "/v1/node/pool/**", "/v1/agent/join", "/v1/agent/force-leave", "/v1/agent/keyring/**", "/v1/agent/schedulers",
            "/v1/agent/schedulers/**", "/v1/system/reconcile/summaries", "/v1/quotas", "/v1/quota/**", "/v1/sentinel/**",
            "/v1/recommendations", "/v1/recommendation/**", "/v1/node/{id}/evaluate", "/v1/node/{id}/purge"})
    void unsupported(HttpServletRequest request) {
        String path = request.getRequestURI();
        throw new ApiException(HttpStatus.NOT_IMPLEMENTED, path + ": " + missing(path) + " (see docs/nomad-compatibility.md)");
    }

    /** What the agent lacks for {@code path}, in a sentence a user can act on. */
    static String missing(String path) {
        if (path.startsWith("/v1/acl")) {
            return "Berth keeps no ACL policies, roles or tokens; its tokens come from berth.acl";
        }
        if (path.startsWith("/v1/operator")) {
            return "Berth has no Raft cluster, autopilot, snapshots, keyring or scheduler configuration to operate "
                    + "(only /v1/operator/raft/configuration is answered)";
        }
        if (path.startsWith("/v1/deployment")) {
            return "Berth's deployments run in one region: there is no multiregion deployment to unblock";
        }
        if (path.startsWith("/v1/volume") || path.startsWith("/v1/plugin")) {
            return "Berth has no CSI volumes or plugins; its host volumes are /v1/volume/host/* and /v1/volumes?type=host";
        }
        if (path.startsWith("/v1/search")) {
            return "Berth has no search index; the list endpoints take prefix=";
        }
        if (path.startsWith("/v1/scaling")) {
            return "Berth keeps no scaling policies; scale a group with /v1/job/:id/scale";
        }
        if (path.startsWith("/v1/node/pool")) {
            return "Berth keeps no node pool objects: its one node and every job are in the default pool";
        }
        if (path.startsWith("/v1/node/")) {
            return nodeAction(path);
        }
        if (path.startsWith("/v1/agent/schedulers")) {
            return "Berth's local scheduler is one loop on the agent, without scheduler workers to configure";
        }
        if (path.startsWith("/v1/agent/")) {
            return "Berth agents run without servers and gossip: there is no pool to join or leave and no gossip keyring";
        }
        if (path.startsWith("/v1/system/reconcile")) {
            return "Berth computes job summaries from the allocations on every read: there is nothing to reconcile";
        }
        return "quotas, Sentinel policies and recommendations are Nomad Enterprise features Berth does not have";
    }

    private static String nodeAction(String path) {
        if (path.endsWith("/evaluate")) {
            return "Berth's local scheduler re-evaluates every job every second on its own; "
                    + "evaluate one job with /v1/job/:id/evaluate";
        }
        return "the agent cannot purge its own node";
    }
}
