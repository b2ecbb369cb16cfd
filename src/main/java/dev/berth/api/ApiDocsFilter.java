package dev.berth.api;

import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * Serves the OpenAPI document and Swagger UI (registered for their paths only, after every other filter, the ACL
 * filter included) from a child context started on the first such request: springdoc, swagger-core and Jackson 2 cost
 * nothing until someone asks for the API description. The child has its own {@link DispatcherServlet}; requests keep
 * their paths (this is a filter on the agent's servlet, not a servlet of its own), so springdoc's mappings, redirects
 * and URLs are those it had in the agent's context. A child that fails to start answers this request with the error and
 * is tried again on the next one.
 */
class ApiDocsFilter extends OncePerRequestFilter {

    static final String SERVLET_NAME = "berthApiDocs";

    private static final Logger log = LoggerFactory.getLogger(ApiDocsFilter.class);

    private final ConfigurableApplicationContext agent;
    private volatile Started started;

    ApiDocsFilter(ConfigurableApplicationContext agent) {
        this.agent = agent;
    }

    private record Started(ApiDocsContext context, DispatcherServlet servlet) {
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        servlet().service(request, response);
    }

    /** The child context, once a request started it; null before. */
    ApiDocsContext childContext() {
        Started current = started;
        return current == null ? null : current.context();
    }

    private DispatcherServlet servlet() throws ServletException {
        Started current = started;
        if (current == null) {
            synchronized (this) {
                current = started;
                if (current == null) {
                    current = start();
                    started = current;
                }
            }
        }
        return current.servlet();
    }

    private Started start() throws ServletException {
        long begin = System.nanoTime();
        ApiDocsContext context = new ApiDocsContext();
        context.setEnvironment(agent.getEnvironment());
        context.setParent(agent);
        context.setDisplayName("berth-api-docs");
        context.register(ApiDocsChildConfiguration.class);
        DispatcherServlet servlet = new DispatcherServlet(context);
        try {
            servlet.init(new Config(getServletContext()));
        } catch (ServletException | RuntimeException e) {
            context.close();
            throw e;
        }
        log.debug("API docs context started in {} ms", (System.nanoTime() - begin) / 1_000_000);
        return new Started(context, servlet);
    }

    /** The agent's servlet context is stopped (shutdown, or a paused test context): the child goes with it. */
    @Override
    public void destroy() {
        Started current;
        synchronized (this) {
            current = started;
            started = null;
        }
        if (current != null) {
            current.servlet().destroy();
            current.context().close();
        }
    }

    private record Config(ServletContext servletContext) implements ServletConfig {

        @Override
        public String getServletName() {
            return SERVLET_NAME;
        }

        @Override
        public ServletContext getServletContext() {
            return servletContext;
        }

        @Override
        public String getInitParameter(String name) {
            return null;
        }

        @Override
        public Enumeration<String> getInitParameterNames() {
            return Collections.emptyEnumeration();
        }
    }
}
