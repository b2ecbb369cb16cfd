package dev.berth.api;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

import dev.berth.config.AclPolicy;

/**
 * Registers the {@link AclFilter} for every path. Declared here (not as a {@code @Component} filter) so the
 * {@code @WebMvcTest} slices of other controllers do not pick it up and need ACL beans they do not care about.
 */
@Configuration(proxyBeanMethods = false)
class AclFilterConfiguration {

    @Bean
    FilterRegistrationBean<AclFilter> aclFilter(AclPolicy policy, JsonMapper jsonMapper) {
        FilterRegistrationBean<AclFilter> registration = new FilterRegistrationBean<>(new AclFilter(policy, jsonMapper));
        registration.addUrlPatterns("/*");
        // Early, but after Boot's character-encoding and request-context filters (HIGHEST_PRECEDENCE ..).
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 100);
        registration.setName("berthAclFilter");
        return registration;
    }

    /** Before Boot's form-content filter, which would otherwise consume a {@code curl -d} body as form fields. */
    @Bean
    FilterRegistrationBean<JsonBodyFilter> jsonBodyFilter() {
        FilterRegistrationBean<JsonBodyFilter> registration = new FilterRegistrationBean<>(new JsonBodyFilter());
        registration.addUrlPatterns("/v1/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 50);
        registration.setName("berthJsonBodyFilter");
        return registration;
    }
}
