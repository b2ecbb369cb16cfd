package dev.berth.api;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Registers the {@link RequestBodyLimitFilter} for {@code /v1/*} with {@code berth.api.max-request-body-size}. A
 * registration here rather than a {@code @Component} filter, so the {@code @WebMvcTest} slices do not need
 * {@link ApiProperties}.
 */
@Configuration(proxyBeanMethods = false)
class RequestBodyLimitConfiguration {

    /** After the ACL filter (an unauthorised client is refused before its size matters), before anything reads the body. */
    @Bean
    FilterRegistrationBean<RequestBodyLimitFilter> requestBodyLimitFilter(ApiProperties properties, JsonMapper jsonMapper) {
        FilterRegistrationBean<RequestBodyLimitFilter> registration = new FilterRegistrationBean<>(
                new RequestBodyLimitFilter(properties.maxRequestBodySize().toBytes(), jsonMapper));
        registration.addUrlPatterns("/v1/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 110);
        registration.setName("berthRequestBodyLimitFilter");
        return registration;
    }
}
