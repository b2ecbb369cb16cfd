package dev.berth.api;

import java.io.IOException;
import java.util.Set;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.servlet.filter.OrderedFilter;
import org.springframework.boot.servlet.filter.OrderedFormContentFilter;
import org.springframework.http.MediaType;
import org.springframework.util.StringUtils;
import org.springframework.web.filter.FormContentFilter;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Spring Boot's form-content filter (form fields of a {@code PUT}, {@code PATCH} or {@code DELETE} body as request
 * parameters), created on the first request it would parse. Its constructor builds every default message converter
 * (Jackson 2's YAML one included, for multipart parts this filter never writes), which is all it would cost at start.
 * Same order as Boot's; every other request passes straight through, as it does through Boot's filter.
 */
class LazyFormContentFilter extends OncePerRequestFilter implements OrderedFilter {

    private static final Set<String> METHODS = Set.of("PUT", "PATCH", "DELETE");

    private volatile FormContentFilter delegate;

    /** Whether the real filter was created (a form body arrived). */
    boolean created() {
        return delegate != null;
    }

    @Override
    public int getOrder() {
        return OrderedFormContentFilter.DEFAULT_ORDER;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        FormContentFilter filter = delegate;
        if (filter == null && isForm(request)) {
            filter = create();
        }
        if (filter == null) {
            chain.doFilter(request, response);
        } else {
            filter.doFilter(request, response, chain);
        }
    }

    /** What {@link FormContentFilter} parses: a form content type on one of its methods. */
    static boolean isForm(HttpServletRequest request) {
        String contentType = request.getContentType();
        if (!StringUtils.hasLength(contentType) || !METHODS.contains(request.getMethod())) {
            return false;
        }
        try {
            return MediaType.APPLICATION_FORM_URLENCODED.includes(MediaType.parseMediaType(contentType));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private synchronized FormContentFilter create() {
        if (delegate == null) {
            delegate = new FormContentFilter();
        }
        return delegate;
    }
}
