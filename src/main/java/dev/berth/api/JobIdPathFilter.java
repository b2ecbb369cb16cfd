package dev.berth.api;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ServletRequestPathUtils;

/**
 * Job IDs of periodic and dispatched children hold a {@code /} ({@code report/periodic-1790000000}), and clients such as
 * HashiCorp's Java SDK put them in the path as they are ({@code /v1/job/report/periodic-1790000000/summary}). As Nomad's
 * HTTP server does, everything after {@code /v1/job/} up to a known sub-resource suffix is the job ID: the filter hands
 * such a request on with the ID's slashes encoded, so {@code /v1/job/{id}/…} mappings see the whole ID.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class JobIdPathFilter extends OncePerRequestFilter {

    private static final String PREFIX = "/v1/job/";
    /** Every suffix of Nomad's {@code JobSpecificRequest}, in its order; the rest of the path is the job ID. */
    private static final List<String> SUFFIXES = List.of("/evaluate", "/allocations", "/evaluations", "/periodic/force", "/plan",
            "/summary", "/dispatch", "/versions", "/revert", "/deployments", "/deployment", "/stable", "/scale", "/services",
            "/submission", "/actions", "/action");

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String uri = request.getRequestURI();
        return !uri.startsWith(PREFIX) || uri.indexOf('/', PREFIX.length()) < 0;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String rest = request.getRequestURI().substring(PREFIX.length());
        String suffix = SUFFIXES.stream().filter(rest::endsWith).findFirst().orElse("");
        String id = rest.substring(0, rest.length() - suffix.length());
        if (!id.contains("/") || id.isEmpty()) {
            chain.doFilter(request, response);
            return;
        }
        String uri = PREFIX + id.replace("/", "%2F") + suffix;
        request.removeAttribute(ServletRequestPathUtils.PATH_ATTRIBUTE);
        chain.doFilter(new HttpServletRequestWrapper(request) {
            @Override
            public String getRequestURI() {
                return uri;
            }

            @Override
            public StringBuffer getRequestURL() {
                StringBuffer url = new StringBuffer(super.getRequestURL());
                int at = url.indexOf(request.getRequestURI());
                return at < 0 ? url : url.replace(at, at + request.getRequestURI().length(), uri);
            }

            @Override
            public String getServletPath() {
                return uri;
            }
        }, response);
    }
}
