package dev.berth.api;

import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Locale;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Reads a {@code /v1/} request body as JSON when it comes without a Content-Type or as
 * {@code application/x-www-form-urlencoded} (what {@code curl -d} sends): Nomad's agent decodes every body as JSON
 * whatever its Content-Type, so Nomad's clients and scripts do not set one. Other content types are left alone.
 */
final class JsonBodyFilter extends OncePerRequestFilter {

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String type = request.getContentType();
        return !("PUT".equals(request.getMethod()) || "POST".equals(request.getMethod()))
                || !request.getRequestURI().startsWith("/v1/")
                || (type != null && !type.toLowerCase(Locale.ROOT).startsWith(MediaType.APPLICATION_FORM_URLENCODED_VALUE));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        chain.doFilter(new AsJson(request), response);
    }

    private static final class AsJson extends HttpServletRequestWrapper {

        AsJson(HttpServletRequest request) {
            super(request);
        }

        @Override
        public String getContentType() {
            return MediaType.APPLICATION_JSON_VALUE;
        }

        @Override
        public String getHeader(String name) {
            return "content-type".equalsIgnoreCase(name) ? MediaType.APPLICATION_JSON_VALUE : super.getHeader(name);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            return "content-type".equalsIgnoreCase(name)
                    ? Collections.enumeration(java.util.List.of(MediaType.APPLICATION_JSON_VALUE)) : super.getHeaders(name);
        }

        @Override
        public Enumeration<String> getHeaderNames() {
            java.util.List<String> names = Collections.list(super.getHeaderNames());
            if (names.stream().noneMatch("content-type"::equalsIgnoreCase)) {
                names.add("Content-Type");
            }
            return Collections.enumeration(names);
        }
    }
}
