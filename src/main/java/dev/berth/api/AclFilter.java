package dev.berth.api;

import java.io.IOException;
import java.net.URI;
import java.util.Set;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.berth.config.AclDecision;
import dev.berth.config.AclPolicy;
import dev.berth.config.BerthProperties.TokenScope;

/**
 * Enforces {@code berth.acl}: every request needs a token with read scope, every mutating request (anything but
 * GET/HEAD/OPTIONS) write scope; metrics and health are open when {@code anonymous-metrics} is on. The token comes
 * from {@code X-Nomad-Token} (Nomad's header) or {@code Authorization: Bearer}. Refusals are 403 problem
 * details carrying Nomad's texts ({@value AclPolicy#PERMISSION_DENIED}, {@value AclPolicy#TOKEN_NOT_FOUND}).
 *
 * <p>A plain filter rather than Spring Security: the model is two static scopes checked against a handful of
 * pre-shared secrets, which Spring Security would wrap in a filter chain, a session policy, CSRF defaults and an
 * error path of its own (its 403s are not our problem details) without adding anything we use.
 */
class AclFilter extends OncePerRequestFilter {

    static final String TOKEN_HEADER = "X-Nomad-Token";

    private static final Logger log = LoggerFactory.getLogger(AclFilter.class);
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");
    private static final Set<String> METRICS_PATHS = Set.of("/actuator/prometheus", "/v1/metrics", "/actuator/health",
            "/v1/agent/health"); // Nomad serves its agent health without ACL: load balancers and probes carry no token

    private final AclPolicy policy;
    private final JsonMapper jsonMapper;

    AclFilter(AclPolicy policy, JsonMapper jsonMapper) {
        this.policy = policy;
        this.jsonMapper = jsonMapper;
    }

    /** What a request needs; {@code null} means nothing (anonymous access). */
    static TokenScope requiredScope(String method, String path, boolean anonymousMetrics) {
        boolean safe = SAFE_METHODS.contains(method);
        if (isExec(path)) {
            return null; // the exec websocket checks its token itself, also one sent in its first frame (ExecSocketHandler)
        }
        if (!safe || isGc(path)) {
            return TokenScope.WRITE;
        }
        if (anonymousMetrics && (METRICS_PATHS.contains(path) || path.startsWith("/actuator/health/"))) {
            return null;
        }
        if (isUiAsset(path)) {
            return null;
        }
        return TokenScope.READ;
    }

    /** {@code /v1/client/allocation/{id}/exec}: write scope, checked by {@link ExecSocketHandler} after the upgrade. */
    static boolean isExec(String path) {
        return path.startsWith("/v1/client/allocation/") && path.endsWith("/exec") && path.indexOf('/', 22) == path.length() - 5;
    }

    /** Garbage collection destroys data: write scope with any method (Nomad accepts GET for it). */
    static boolean isGc(String path) {
        return "/v1/client/gc".equals(path) || "/v1/system/gc".equals(path)
                || (path.startsWith("/v1/client/allocation/") && path.endsWith("/gc"));
    }

    /**
     * The web UI's pages, scripts and styles ({@code /ui/**}) are static files with no data in them: the browser loads
     * them without a token (a navigation cannot carry a header), and the page then asks for a token and sends it with
     * every API call, which this filter checks as usual.
     */
    static boolean isUiAsset(String path) {
        return path.equals("/ui") || path.startsWith("/ui/");
    }

    /** The secret from {@code X-Nomad-Token}, else from {@code Authorization: Bearer …}; {@code null} when none. */
    static String presentedSecret(HttpServletRequest request) {
        String token = request.getHeader(TOKEN_HEADER);
        if (token != null && !token.isBlank()) {
            return token.strip();
        }
        String authorization = request.getHeader("Authorization");
        if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            String bearer = authorization.substring(7).strip();
            return bearer.isEmpty() ? null : bearer;
        }
        return null;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !policy.enabled();
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        // Servlet path + path info is decoded and normalised by the container, so "/v1/../actuator/x" cannot
        // masquerade as an anonymous path.
        String path = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        TokenScope required = requiredScope(request.getMethod(), path, policy.anonymousMetrics());
        if (required == null) {
            chain.doFilter(request, response);
            return;
        }
        switch (policy.authorize(presentedSecret(request), required)) {
            case AclDecision.Allowed allowed -> chain.doFilter(request, response);
            case AclDecision.Denied denied -> {
                log.info("ACL refused {} {}: {}", request.getMethod(), path, denied.reason());
                deny(request, response, denied.reason());
            }
        }
    }

    private void deny(HttpServletRequest request, HttpServletResponse response, String reason) throws IOException {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.FORBIDDEN, reason);
        try {
            problem.setInstance(URI.create(request.getRequestURI()));
        } catch (IllegalArgumentException ex) {
            // A request URI that is not a valid URI reference: leave "instance" out rather than fail the refusal.
        }
        response.setStatus(HttpStatus.FORBIDDEN.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.getOutputStream().write(jsonMapper.writeValueAsBytes(problem));
    }
}
