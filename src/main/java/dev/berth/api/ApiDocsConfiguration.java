package dev.berth.api;

import java.util.List;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Routes the OpenAPI document's and Swagger UI's paths ({@code springdoc.api-docs.path}, {@code .yaml}, its
 * sub-paths such as {@code swagger-config}; {@code springdoc.swagger-ui.path} and the {@code swagger-ui/} resources
 * beside it) to {@link ApiDocsFilter}, last in the filter chain so the ACL and every other filter run first as before.
 */
@Configuration(proxyBeanMethods = false)
class ApiDocsConfiguration {

    static final String DOCS_PATH = "springdoc.api-docs.path";
    static final String UI_PATH = "springdoc.swagger-ui.path";

    @Bean
    FilterRegistrationBean<ApiDocsFilter> apiDocsFilter(ConfigurableApplicationContext context, Environment env) {
        FilterRegistrationBean<ApiDocsFilter> registration = new FilterRegistrationBean<>(new ApiDocsFilter(context));
        registration.setUrlPatterns(urlPatterns(env.getProperty(DOCS_PATH, "/v3/api-docs"),
                env.getProperty(UI_PATH, "/swagger-ui.html")));
        registration.setOrder(Ordered.LOWEST_PRECEDENCE);
        registration.setName(ApiDocsFilter.SERVLET_NAME);
        return registration;
    }

    /** Servlet URL patterns: exact paths, and {@code /x/*} for everything under {@code /x} (and {@code /x} itself). */
    static List<String> urlPatterns(String docsPath, String uiPath) {
        String uiRoot = uiPath.substring(0, uiPath.lastIndexOf('/') + 1);
        return List.of(docsPath + "/*", docsPath + ".yaml", uiPath, uiRoot + "swagger-ui/*");
    }
}
